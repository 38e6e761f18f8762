import { useState } from 'react';
import { useForm } from 'react-hook-form';

import { FieldError, FormAlert, fieldProps } from './form';

/** Why saving failed: a message for the form, or one for the current-password field. */
export type NewPasswordFailure = { message: string; field?: 'current' } | null;

interface NewPasswordFormProps {
  /** Prefix of the inputs' ids, unique on the page. */
  id: string;
  /** The account's e-mail, for password managers to file the new password under. */
  username?: string | undefined;
  /**
   * Whether to ask for the current password too (changing it while signed in), which the auth
   * service checks; a recovery link's new password needs none.
   */
  askCurrent?: boolean;
  submitLabel: string;
  /** Saves the password (with the current one, when asked); answers why it failed, else null. */
  onSave: (password: string, current: string | undefined) => Promise<NewPasswordFailure>;
}

interface Fields {
  current: string;
  password: string;
  repeat: string;
}

/** A new password, typed twice (no one sees it, so a typo would lock its owner out). */
export function NewPasswordForm({ id, username, askCurrent = false, submitLabel, onSave }: NewPasswordFormProps) {
  const [error, setError] = useState<string | null>(null);
  const { register, handleSubmit, formState, reset, setError: setFieldError } = useForm<Fields>();
  const { errors } = formState;

  const save = handleSubmit(async ({ current, password }) => {
    setError(null);
    const failure = await onSave(password, askCurrent ? current : undefined);
    if (failure?.field === 'current') {
      setFieldError('current', { message: failure.message }, { shouldFocus: true });
      return;
    }
    setError(failure?.message ?? null);
    if (!failure) reset();
  });

  return (
    <form onSubmit={save} noValidate>
      {/* Password managers (and Chrome's form check) look for the account's name beside a new password. */}
      <input type="email" autoComplete="username" value={username ?? ''} readOnly hidden />
      {askCurrent && (
        <div className="field">
          <label htmlFor={`${id}-current`}>Current password</label>
          <input
            id={`${id}-current`}
            type="password"
            autoComplete="current-password"
            {...fieldProps(`${id}-current`, errors.current, `${id}-current-hint`)}
            {...register('current')}
          />
          <span id={`${id}-current-hint`} className="muted">
            Leave it empty if you have never set one (you sign in by e-mailed link or with a provider).
          </span>
          <FieldError id={`${id}-current`} error={errors.current} />
        </div>
      )}
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
