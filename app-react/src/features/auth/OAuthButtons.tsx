import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';

import { FormAlert } from '@/components/form';
import { authErrorMessage, getAuthClient } from '@/lib/auth';

/** The providers the server can offer (README, "Accounts and sign-in"), with their names. */
const PROVIDERS = { github: 'GitHub', google: 'Google' } as const;
type Provider = keyof typeof PROVIDERS;

interface AuthSettings {
  external?: Record<string, boolean>;
}

/** GET /auth/v1/settings: which sign-in methods the operator turned on. Public, no client. */
async function fetchSettings(): Promise<AuthSettings> {
  const response = await fetch('/auth/v1/settings', { headers: { apikey: 'bobbin' } });
  if (!response.ok) throw new Error(`auth settings: HTTP ${response.status}`);
  return (await response.json()) as AuthSettings;
}

/** "Sign in with …" for each provider the server has enabled; nothing when there are none. */
export function OAuthButtons({ redirectTo }: { redirectTo: string }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { data } = useQuery({
    queryKey: ['auth', 'settings'],
    queryFn: fetchSettings,
    staleTime: 10 * 60_000,
    retry: false,
  });
  const enabled = (Object.keys(PROVIDERS) as Provider[]).filter((provider) => data?.external?.[provider] === true);
  if (enabled.length === 0) return null;

  const signIn = async (provider: Provider) => {
    setError(null);
    setBusy(true);
    try {
      const { auth } = await getAuthClient();
      // On success the browser leaves for the provider and comes back to /auth/callback.
      const { error: failure } = await auth.signInWithOAuth({ provider, options: { redirectTo } });
      if (failure) setError(authErrorMessage(failure, 'OAuth failed'));
    } catch (failure) {
      setError(authErrorMessage(failure, 'OAuth failed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="auth__providers">
      <p className="auth__divider">or</p>
      {enabled.map((provider) => (
        <button key={provider} className="button auth__submit" type="button" disabled={busy} onClick={() => void signIn(provider)}>
          Sign in with {PROVIDERS[provider]}
        </button>
      ))}
      <FormAlert message={error} />
    </div>
  );
}
