// The inventory's forms on react-hook-form. Their checks are the parse each makes on submit
// (draftOf, inputOf: the text typed becomes the numbers sent) and the server's answer, rather
// than a rule per field that would parse the same text twice; so a form's field messages are
// set here, with setError, and the form's alert and status line are kept beside them.
import { type BaseSyntheticEvent, useState } from 'react';
import { type FieldValues, type Path, type SubmitHandler, type UseFormProps, useForm } from 'react-hook-form';

import type { FormProblems } from './errors';

/** The form field a server field name stands for: `hoops[0].width_mm` is `hoops.0.width_mm`. */
export function fieldPath(field: string): string {
  return field.replace(/\[(\d+)\]/g, '.$1');
}

export function useInventoryForm<V extends FieldValues>(options: UseFormProps<V>) {
  const form = useForm<V>(options);
  const [alert, setAlert] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  /** Forgets what the last submit showed. */
  const clear = () => {
    form.clearErrors();
    setAlert(null);
    setDone(null);
  };

  return {
    form,
    /** The form's alert (role="alert"), next to its button. */
    alert,
    /** The form's status line after a success ("Saved."). */
    done,
    setDone,
    clear,
    /** Shows `problems`: each field's message by its input, the rest in the alert. */
    show: (problems: FormProblems) => {
      for (const [field, message] of Object.entries(problems.fields)) {
        form.setError(fieldPath(field) as Path<V>, { type: 'server', message });
      }
      setAlert(problems.alert);
    },
    /**
     * `onValid` as the form's submit handler, starting from nothing shown, as each submit
     * starts afresh. (react-hook-form checks its registered fields again on submit, but keeps an
     * error set on another name, a whole list's say, which would hold up every later submit.)
     */
    onSubmit: (onValid: SubmitHandler<V>) => (event?: BaseSyntheticEvent) => {
      clear();
      return form.handleSubmit(onValid)(event);
    },
  };
}
