import { type ReactNode, useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';

import { FieldError, FormAlert, fieldProps } from '@/components/form';
import { OneTimeCodeForm } from '@/components/OneTimeCodeForm';
import { paths } from '@/config/paths';
import { authErrorMessage, callbackUrl, getAuthClient, hasAuthCookie, needsSecondFactor, safeRedirect } from '@/lib/auth';

import { AuthCard } from './AuthCard';
import { OAuthButtons } from './OAuthButtons';

interface Credentials {
  email: string;
  password: string;
}

/** The verified authenticator app the session must use to reach `aal2`, if it must. */
async function pendingFactor(): Promise<string | null> {
  if (!(await needsSecondFactor())) return null;
  const { auth } = await getAuthClient();
  const { data } = await auth.mfa.listFactors();
  return data?.totp[0]?.id ?? null;
}

/**
 * `/login`: e-mail and password (or a provider the server offers), then, when the account has a
 * verified authenticator app, its six-digit code (the session must reach `aal2`). Afterwards on
 * to `?redirect=`, the page the login guard sent the person away from, else to the dashboard
 * (docs/behaviour.md, "Navigation guards"). `notice` (what the app shell knows of where the
 * person is going: an invite) shows above the form.
 */
export function LoginPage({ notice }: { notice?: ReactNode }) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const redirectTo = safeRedirect(params.get('redirect'), paths.dashboard);
  const [error, setError] = useState<string | null>(null);
  const [factorId, setFactorId] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<Credentials>();
  const done = () => navigate(redirectTo, { replace: true });

  // Sent here with a session that still needs its code (the guard does not count it as
  // logged in): ask for the code rather than the password again.
  useEffect(() => {
    if (!hasAuthCookie()) return;
    let cancelled = false;
    void pendingFactor().then((id) => {
      if (!cancelled && id) setFactorId(id);
    });
    return () => {
      cancelled = true;
    };
  }, []);

  const signIn = handleSubmit(async (credentials) => {
    setError(null);
    try {
      const { auth } = await getAuthClient();
      const { error: failure } = await auth.signInWithPassword(credentials);
      if (failure) {
        setError(authErrorMessage(failure, 'Login failed'));
        return;
      }
      const factor = await pendingFactor();
      if (factor) setFactorId(factor);
      else await done();
    } catch (failure) {
      setError(authErrorMessage(failure, 'Login failed'));
    }
  });

  if (factorId) {
    return <SecondStep factorId={factorId} onDone={done} onCancel={() => setFactorId(null)} />;
  }
  return (
    <AuthCard title="Login">
      {notice}
      <form onSubmit={signIn} noValidate>
        <div className="field">
          <label htmlFor="login-email">E-mail</label>
          <input
            id="login-email"
            type="email"
            autoComplete="email"
            {...fieldProps('login-email', formState.errors.email)}
            {...register('email', { required: 'Enter your e-mail address.' })}
          />
          <FieldError id="login-email" error={formState.errors.email} />
        </div>
        <div className="field">
          <label htmlFor="login-password">Password</label>
          <input
            id="login-password"
            type="password"
            autoComplete="current-password"
            {...fieldProps('login-password', formState.errors.password)}
            {...register('password', { required: 'Enter your password.' })}
          />
          <FieldError id="login-password" error={formState.errors.password} />
        </div>
        <FormAlert message={error} />
        <button className="button button--primary auth__submit" type="submit" disabled={formState.isSubmitting}>
          {/* The page's heading is "Login": the button says the same. */}
          {formState.isSubmitting ? 'Logging in…' : 'Log in'}
        </button>
      </form>
      <OAuthButtons redirectTo={callbackUrl(redirectTo)} />
      <p className="auth__links">
        <Link to={paths.forgotPassword}>Forgot your password?</Link>
        {/* Someone sent here from a page (an invite link) who has no account comes back to it. */}
        <Link to={params.has('redirect') ? `${paths.register}?${new URLSearchParams({ redirect: redirectTo })}` : paths.register}>
          Create an account
        </Link>
      </p>
    </AuthCard>
  );
}

interface SecondStepProps {
  factorId: string;
  onDone: () => unknown;
  onCancel: () => void;
}

/** The code from the authenticator app, which raises the new session to `aal2`. */
function SecondStep({ factorId, onDone, onCancel }: SecondStepProps) {
  const verify = async (code: string) => {
    try {
      const { auth } = await getAuthClient();
      const { error } = await auth.mfa.challengeAndVerify({ factorId, code });
      if (error) return authErrorMessage(error, 'Login failed');
      await onDone();
      return null;
    } catch (error) {
      return authErrorMessage(error, 'Login failed');
    }
  };

  // Another account: end this half-finished session here (its cookie would bring the code
  // prompt back).
  const switchAccount = async () => {
    const { auth } = await getAuthClient();
    await auth.signOut({ scope: 'local' });
    onCancel();
  };

  return (
    <AuthCard title="Login">
      <OneTimeCodeForm hint="Enter the six-digit code from your authenticator app." submitLabel="Verify" onCode={verify} />
      <p className="auth__links">
        <button className="link-button" type="button" onClick={() => void switchAccount()}>
          Use another account
        </button>
      </p>
    </AuthCard>
  );
}
