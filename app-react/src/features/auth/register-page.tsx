import { type ReactNode, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';

import { FieldError, FormAlert, fieldProps } from '@/components/form';
import { OneTimeCodeForm } from '@/components/OneTimeCodeForm';
import { paths } from '@/config/paths';
import { authErrorMessage, callbackUrl, getAuthClient, passwordErrorMessage, safeRedirect } from '@/lib/auth';

import { AuthCard } from './AuthCard';

interface Registration {
  fullName: string;
  email: string;
  password: string;
}

/**
 * `/register`: e-mail, password and an optional full name; the e-mail then confirms it, by its
 * link or by the six-digit code typed here. With a `?redirect=` (someone sent to log in from a
 * page, an invite link say, who has no account yet) either leads back to that page rather than
 * to the confirmation page (which goes on to the dashboard). `notice` (what the app shell knows of
 * where the person is going: an invite) shows above the form.
 */
export function RegisterPage({ notice }: { notice?: ReactNode }) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const redirect = params.get('redirect');
  const next = redirect ? safeRedirect(redirect, paths.authConfirm) : null;
  const loginLink = next ? `${paths.login}?${new URLSearchParams({ redirect: next })}` : paths.login;
  const [error, setError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<Registration>();
  const { errors } = formState;

  const signUp = handleSubmit(async ({ fullName, email, password }) => {
    setError(null);
    try {
      const { auth } = await getAuthClient();
      const name = fullName.trim();
      const { data, error: failure } = await auth.signUp({
        email,
        password,
        options: { data: name ? { full_name: name } : {}, emailRedirectTo: callbackUrl(next ?? paths.authConfirm) },
      });
      if (failure) setError(passwordErrorMessage(failure, 'Registration failed'));
      // With auto-confirmation (development) the account is ready at once.
      else if (data.session) await navigate(next ?? paths.dashboard, { replace: true });
      else setSentTo(email);
    } catch (failure) {
      setError(passwordErrorMessage(failure, 'Registration failed'));
    }
  });

  // The code of the confirmation e-mail, typed in: it proves the address as the link does.
  const confirmWithCode = async (code: string) => {
    if (!sentTo) return null;
    try {
      const { auth } = await getAuthClient();
      const { error: failure } = await auth.verifyOtp({ email: sentTo, token: code, type: 'signup' });
      if (failure) return authErrorMessage(failure, 'Verification failed');
      await navigate(next ?? paths.authConfirm, { replace: true });
      return null;
    } catch (failure) {
      return authErrorMessage(failure, 'Verification failed');
    }
  };

  if (sentTo) {
    return (
      <AuthCard title="Register">
        <p role="status">
          Check your e-mail: we sent a link to <strong>{sentTo}</strong>. Open it to confirm your address and sign in.
        </p>
        <OneTimeCodeForm
          className="auth__code"
          hint="Or type the six-digit code from the e-mail here."
          submitLabel="Confirm"
          onCode={confirmWithCode}
        />
        <p className="auth__links">
          <Link to={loginLink}>Back to login</Link>
        </p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Register">
      {notice}
      <form onSubmit={signUp} noValidate>
        <div className="field">
          <label htmlFor="register-name">Full name (optional)</label>
          <input id="register-name" autoComplete="name" {...register('fullName')} />
        </div>
        <div className="field">
          <label htmlFor="register-email">E-mail</label>
          <input
            id="register-email"
            type="email"
            autoComplete="email"
            {...fieldProps('register-email', errors.email)}
            {...register('email', { required: 'Enter your e-mail address.' })}
          />
          <FieldError id="register-email" error={errors.email} />
        </div>
        <div className="field">
          <label htmlFor="register-password">Password</label>
          <input
            id="register-password"
            type="password"
            autoComplete="new-password"
            {...fieldProps('register-password', errors.password, 'register-password-hint')}
            {...register('password', {
              required: 'Choose a password.',
              minLength: { value: 8, message: 'Use at least 8 characters.' },
            })}
          />
          <span id="register-password-hint" className="muted">
            At least 8 characters.
          </span>
          <FieldError id="register-password" error={errors.password} />
        </div>
        <FormAlert message={error} />
        <button className="button button--primary auth__submit" type="submit" disabled={formState.isSubmitting}>
          {formState.isSubmitting ? 'Creating your account…' : 'Create account'}
        </button>
      </form>
      <p className="auth__links">
        <Link to={loginLink}>I already have an account</Link>
      </p>
    </AuthCard>
  );
}
