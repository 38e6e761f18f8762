import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';

import { paths } from '@/config/paths';
import { authErrorMessage, callbackUrl, getAuthClient } from '@/lib/auth';

import { AuthCard, AuthError } from './AuthCard';

interface Registration {
  fullName: string;
  email: string;
  password: string;
}

const WEAK_REASONS: Record<string, string> = {
  length: 'use at least 8 characters',
  characters: 'mix lower-case and upper-case letters, digits and symbols',
  pwned: 'choose a password that is not on lists of common passwords',
};

/** `/register`: e-mail, password and an optional full name; the e-mail then confirms it. */
export function RegisterPage() {
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<Registration>();

  const signUp = handleSubmit(async ({ fullName, email, password }) => {
    setError(null);
    const { auth } = await getAuthClient();
    const name = fullName.trim();
    const { data, error: failure } = await auth.signUp({
      email,
      password,
      options: { data: name ? { full_name: name } : {}, emailRedirectTo: callbackUrl(paths.authConfirm) },
    });
    const reasons = failure && 'reasons' in failure ? (failure.reasons as string[]) : [];
    if (failure && reasons.length > 0) {
      // AuthWeakPasswordError: say what to change.
      const advice = reasons.map((reason) => WEAK_REASONS[reason] ?? reason).join('; ');
      setError(`${authErrorMessage(failure, 'Registration failed')}: ${advice}.`);
    } else if (failure) {
      setError(authErrorMessage(failure, 'Registration failed'));
    } else if (data.session) {
      await navigate(paths.home, { replace: true });
    } else {
      setSentTo(email);
    }
  });

  if (sentTo) {
    return (
      <AuthCard title="Register">
        <p role="status">
          We sent a link to <strong>{sentTo}</strong>. Open it to confirm your address and sign in.
        </p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Register">
      <form onSubmit={signUp} noValidate>
        <div className="field">
          <label htmlFor="register-name">Full name (optional)</label>
          <input id="register-name" autoComplete="name" {...register('fullName')} />
        </div>
        <div className="field">
          <label htmlFor="register-email">E-mail</label>
          <input id="register-email" type="email" autoComplete="email" required {...register('email')} />
        </div>
        <div className="field">
          <label htmlFor="register-password">Password</label>
          <input
            id="register-password"
            type="password"
            autoComplete="new-password"
            minLength={8}
            required
            aria-describedby="register-password-hint"
            {...register('password')}
          />
          <span id="register-password-hint" className="muted">
            At least 8 characters.
          </span>
        </div>
        <AuthError message={error} />
        <button className="button auth__submit" type="submit" disabled={formState.isSubmitting}>
          {formState.isSubmitting ? 'Creating your account…' : 'Create account'}
        </button>
      </form>
      <p className="auth__links">
        <Link to={paths.login}>I already have an account</Link>
      </p>
    </AuthCard>
  );
}
