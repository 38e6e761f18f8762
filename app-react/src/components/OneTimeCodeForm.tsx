import { type ReactNode, useId, useState } from 'react';
import { useForm } from 'react-hook-form';

import { FieldError, FormAlert, fieldProps } from './form';

interface OneTimeCodeFormProps {
  /** What to do and why, above the field. */
  hint: string;
  submitLabel: string;
  /** Checks the code; answers the message to show when that failed, else null. */
  onCode: (code: string) => Promise<string | null>;
  className?: string;
  /** More buttons beside the submit button (Cancel). */
  children?: ReactNode;
}

/** The six-digit code of an authenticator app: one field, filled by the phone's autofill. */
export function OneTimeCodeForm({ hint, submitLabel, onCode, className, children }: OneTimeCodeFormProps) {
  const id = useId();
  const [error, setError] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<{ code: string }>();

  const submit = handleSubmit(async ({ code }) => {
    setError(null);
    setError(await onCode(code.replace(/\s/g, '')));
  });

  return (
    <form className={className} onSubmit={submit} noValidate>
      <p id={`${id}-hint`}>{hint}</p>
      <div className="field">
        <label htmlFor={`${id}-code`}>Code</label>
        <input
          id={`${id}-code`}
          className="one-time-code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          autoFocus
          {...fieldProps(`${id}-code`, formState.errors.code, `${id}-hint`)}
          {...register('code', { required: 'Enter the code.' })}
        />
        <FieldError id={`${id}-code`} error={formState.errors.code} />
      </div>
      <FormAlert message={error} />
      <div className="actions">
        <button className="button button--primary" type="submit" disabled={formState.isSubmitting}>
          {formState.isSubmitting ? 'Checking…' : submitLabel}
        </button>
        {children}
      </div>
    </form>
  );
}
