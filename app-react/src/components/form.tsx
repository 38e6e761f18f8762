// Small pieces every form shares: a field's own error, tied to its input for screen readers,
// and the form's own alert and status lines.
import type { FieldError as HookFormFieldError } from 'react-hook-form';

/**
 * The accessibility attributes of an input with id `id`: invalid while `error` is set, and
 * described by its hint (if any) and its error message.
 */
export function fieldProps(id: string, error: HookFormFieldError | undefined, hint?: string) {
  const describedBy = [hint, error ? `${id}-error` : undefined].filter(Boolean).join(' ');
  return {
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy || undefined,
  } as const;
}

/** The message of the field `id`'s error, below it; nothing while it is valid. */
export function FieldError({ id, error }: { id: string; error: HookFormFieldError | undefined }) {
  if (!error?.message) return null;
  return (
    <p id={`${id}-error`} className="field__error">
      {error.message}
    </p>
  );
}

/**
 * A form's error, where the person is looking: next to the form's button, announced by screen
 * readers as it appears (role="alert"). Renders nothing without a message.
 */
export function FormAlert({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p className="form-alert" role="alert">
      {message}
    </p>
  );
}

/** A form's success note, announced politely (role="status"). */
export function FormStatus({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p className="form-status" role="status">
      {message}
    </p>
  );
}
