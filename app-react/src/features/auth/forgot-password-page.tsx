import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';

import { FieldError, FormAlert, fieldProps } from '@/components/form';
import { paths } from '@/config/paths';
import { authErrorMessage, callbackUrl, getAuthClient } from '@/lib/auth';

import { AuthCard } from './AuthCard';

/** `/forgot-password`: e-mails a link that signs the person in on the new-password page. */
export function ForgotPasswordPage() {
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const { register, handleSubmit, formState } = useForm<{ email: string }>();

  const send = handleSubmit(async ({ email }) => {
    setError(null);
    try {
      const { auth } = await getAuthClient();
      const { error: failure } = await auth.resetPasswordForEmail(email, { redirectTo: callbackUrl(paths.authReset) });
      if (failure) setError(authErrorMessage(failure, 'Reset failed'));
      else setSent(true);
    } catch (failure) {
      setError(authErrorMessage(failure, 'Reset failed'));
    }
  });

  return (
    <AuthCard title="Forgot Password">
      {sent ? (
        // The same words whether or not the address has an account (the server answers alike).
        <p role="status">If an account uses that address, a link to choose a new password is on its way.</p>
      ) : (
        <form onSubmit={send} noValidate>
          <p className="muted">We will e-mail you a link to choose a new password.</p>
          <div className="field">
            <label htmlFor="forgot-email">E-mail</label>
            <input
              id="forgot-email"
              type="email"
              autoComplete="email"
              {...fieldProps('forgot-email', formState.errors.email)}
              {...register('email', { required: 'Enter your e-mail address.' })}
            />
            <FieldError id="forgot-email" error={formState.errors.email} />
          </div>
          <FormAlert message={error} />
          <button className="button button--primary auth__submit" type="submit" disabled={formState.isSubmitting}>
            {formState.isSubmitting ? 'Sending…' : 'Send the link'}
          </button>
        </form>
      )}
      <p className="auth__links">
        <Link to={paths.login}>Back to login</Link>
      </p>
    </AuthCard>
  );
}
