import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';

import { paths } from '@/config/paths';
import { authErrorMessage, getAuthClient, safeRedirect } from '@/lib/auth';

import { AuthCard, AuthError } from './AuthCard';

interface Credentials {
  email: string;
  password: string;
}

/**
 * `/login`: e-mail and password, then, when the account has a verified authenticator app, its
 * six-digit code (the session must reach `aal2`). Afterwards on to `?redirect=`, the page the
 * login guard sent the person away from.
 */
export function LoginPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const [factorId, setFactorId] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<Credentials>();
  const done = () => navigate(safeRedirect(params.get('redirect')), { replace: true });

  const signIn = handleSubmit(async (credentials) => {
    setError(null);
    const { auth } = await getAuthClient();
    const { error: failure } = await auth.signInWithPassword(credentials);
    if (failure) {
      setError(authErrorMessage(failure, 'Login failed'));
      return;
    }
    const { data: level } = await auth.mfa.getAuthenticatorAssuranceLevel();
    if (level?.nextLevel === 'aal2' && level.currentLevel !== 'aal2') {
      const { data: factors } = await auth.mfa.listFactors();
      const totp = factors?.totp[0];
      if (totp) {
        setFactorId(totp.id);
        return;
      }
    }
    await done();
  });

  if (factorId) return <SecondStep factorId={factorId} onDone={done} />;
  return (
    <AuthCard title="Login">
      <form onSubmit={signIn} noValidate>
        <div className="field">
          <label htmlFor="login-email">E-mail</label>
          <input
            id="login-email"
            type="email"
            autoComplete="email"
            required
            {...register('email', { required: true })}
          />
        </div>
        <div className="field">
          <label htmlFor="login-password">Password</label>
          <input
            id="login-password"
            type="password"
            autoComplete="current-password"
            required
            {...register('password', { required: true })}
          />
        </div>
        <AuthError message={error} />
        <button className="button auth__submit" type="submit" disabled={formState.isSubmitting}>
          {formState.isSubmitting ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p className="auth__links">
        <Link to={paths.forgotPassword}>Forgot your password?</Link>
        <Link to={paths.register}>Create an account</Link>
      </p>
    </AuthCard>
  );
}

/** The code from the authenticator app, which raises the new session to `aal2`. */
function SecondStep({ factorId, onDone }: { factorId: string; onDone: () => unknown }) {
  const [error, setError] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<{ code: string }>();
  const verify = handleSubmit(async ({ code }) => {
    setError(null);
    const { auth } = await getAuthClient();
    const { error: failure } = await auth.mfa.challengeAndVerify({ factorId, code: code.trim() });
    if (failure) {
      setError(authErrorMessage(failure, 'Login failed'));
      return;
    }
    await onDone();
  });
  return (
    <AuthCard title="Login">
      <form onSubmit={verify} noValidate>
        <p>Enter the six-digit code from your authenticator app.</p>
        <div className="field">
          <label htmlFor="login-code">Code</label>
          <input
            id="login-code"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]{6}"
            maxLength={6}
            required
            autoFocus
            {...register('code', { required: true })}
          />
        </div>
        <AuthError message={error} />
        <button className="button auth__submit" type="submit" disabled={formState.isSubmitting}>
          Verify
        </button>
      </form>
    </AuthCard>
  );
}
