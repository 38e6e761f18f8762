import type { AuthError, SupabaseClient } from '@supabase/supabase-js';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';

import { FormAlert } from '@/components/form';
import { paths } from '@/config/paths';
import { authErrorMessage, getAuthClient, safeRedirect } from '@/lib/auth';

import { AuthCard } from './AuthCard';

/**
 * A code can be exchanged once. React runs effects twice in development, and a second
 * exchange would fail (the verifier is gone): both runs share the first one's answer.
 */
const exchanges = new Map<string, Promise<AuthError | null>>();

function exchangeOnce(auth: SupabaseClient['auth'], code: string): Promise<AuthError | null> {
  let exchange = exchanges.get(code);
  if (!exchange) {
    exchange = auth.exchangeCodeForSession(code).then(({ error }) => error);
    exchanges.set(code, exchange);
  }
  return exchange;
}

/**
 * `/auth/callback`: where e-mailed links and OAuth sign-ins come back, with `?code=` to exchange
 * (with the PKCE verifier this browser kept) for a session, or with `error_description` when
 * the service refused. Then on to `next`: the confirm or reset page, or where the person was
 * going (a path on this site only), else the dashboard.
 */
export function CallbackPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  // The service's words when it refused (`error_description`), else the fallback.
  const [refused] = useState(() =>
    params.has('error') || params.has('error_description') ? params.get('error_description') || 'OAuth failed' : null,
  );
  const [code] = useState(() => params.get('code'));
  const [next] = useState(() => safeRedirect(params.get('next'), paths.dashboard));
  const [error, setError] = useState<string | null>(refused);

  useEffect(() => {
    if (refused) return;
    const effect = new AbortController();
    void (async () => {
      try {
        const { auth } = await getAuthClient();
        const failure = code ? await exchangeOnce(auth, code) : null;
        const { data } = await auth.getSession();
        if (effect.signal.aborted) return;
        if (data.session && !failure) await navigate(next, { replace: true });
        else setError(authErrorMessage(failure, 'OAuth failed'));
      } catch (failure) {
        if (!effect.signal.aborted) setError(authErrorMessage(failure, 'OAuth failed'));
      }
    })();
    return () => {
      effect.abort();
    };
  }, [refused, code, next, navigate]);

  return (
    <AuthCard title="Signing in">
      {error ? (
        <>
          <FormAlert message={error} />
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
