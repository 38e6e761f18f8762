import { useState } from 'react';
import { useForm } from 'react-hook-form';

import { FieldError, FormAlert, fieldProps } from './form';

interface NewPasswordFormProps {
  /** Prefix of the inputs' ids, unique on the page. */
  id: string;
  /** The account's e-mail, for password managers to file the new password under. */
  username?: string | undefined;
  submitLabel: string;
  /** Saves the password; answers the message to show when that failed, else null. */
  onSave: (password: string) => Promise<string | null>;
}

interface Fields {
  password: string;
  repeat: string;
}

/** A new password, typed twice (no one sees it, so a typo would lock its owner out). */
export function NewPasswordForm({ id, username, submitLabel, onSave }: NewPasswordFormProps) {
  const [error, setError] = useState<string | null>(null);
  const { register, handleSubmit, formState, reset } = useForm<Fields>();
  const { errors } = formState;

  const save = handleSubmit(async ({ password }) => {
    setError(null);
    const failure = await onSave(password);
    setError(failure);
    if (!failure) reset();
  });

  return (
    <form onSubmit={save} noValidate>
      {/* Password managers (and Chrome's form check) look for the account's name beside a new password. */}
      <input type="email" autoComplete="username" value={username ?? ''} readOnly hidden />
      <div className="field">
        <label htmlFor={`${id}-password`}>New password</label>
        <input
          id={`${id}-password`}
          type="password"
          autoComplete="new-password"
          {...fieldProps(`${id}-password`, errors.password, `${id}-password-hint`)}
          {...register('password', {
            required: 'Choose a password.',
            minLength: { value: 8, message: 'Use at least 8 characters.' },
          })}
        />
        <span id={`${id}-password-hint`} className="muted">
          At least 8 characters.
        </span>
        <FieldError id={`${id}-password`} error={errors.password} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-repeat`}>Repeat the new password</label>
        <input
          id={`${id}-repeat`}
          type="password"
          autoComplete="new-password"
          {...fieldProps(`${id}-repeat`, errors.repeat)}
          {...register('repeat', {
            validate: (repeat, { password }) => repeat === password || 'The two passwords differ.',
          })}
        />
        <FieldError id={`${id}-repeat`} error={errors.repeat} />
      </div>
      <FormAlert message={error} />
      <button className="button button--primary" type="submit" disabled={formState.isSubmitting}>
        {formState.isSubmitting ? 'Saving…' : submitLabel}
      </button>
    </form>
  );
}
