import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';

import { paths } from '@/config/paths';
import { authErrorMessage, getAuthClient, safeRedirect } from '@/lib/auth';

import { AuthCard, AuthError } from './AuthCard';

/**
 * `/auth/callback`: where e-mailed links and OAuth sign-ins come back with `?code=`. Once the
 * client has exchanged the code for a session, goes on to `next` (the confirm or reset page, or
 * where the person was going). Errors arrive as `error_description` in the query.
 */
export function CallbackPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(params.get('error_description'));
  const [next] = useState(() => safeRedirect(params.get('next')));

  useEffect(() => {
    if (error) return;
    let cancelled = false;
    // The client exchanges the `?code=` itself when it starts (it finds it in the address, with
    // the PKCE verifier it kept), and then removes it from the address; wait for that.
    void getAuthClient().then(async ({ auth }) => {
      const { error: failure } = await auth.initialize();
      const { data } = await auth.getSession();
      if (cancelled) return;
      if (data.session) void navigate(next, { replace: true });
      else setError(authErrorMessage(failure, 'OAuth failed'));
    });
    return () => {
      cancelled = true;
    };
  }, [error, navigate, next]);

  return (
    <AuthCard title="Signing in">
      {error ? (
        <>
          <AuthError message={error} />
          <p className="auth__links">
            <Link to={paths.login}>Back to login</Link>
          </p>
        </>
      ) : (
        <p role="status">One moment…</p>
      )}
    </AuthCard>
  );
}
