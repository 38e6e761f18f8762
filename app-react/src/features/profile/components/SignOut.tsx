import { useState } from 'react';
import { useForm } from 'react-hook-form';

import { FormAlert, FormStatus } from '@/components/form';
import { authErrorMessage, getAuthClient } from '@/lib/auth';

type Scope = 'local' | 'global' | 'others';

const SCOPES: { scope: Scope; label: string; hint: string }[] = [
  { scope: 'local', label: 'This device', hint: 'Other devices stay signed in.' },
  { scope: 'global', label: 'All devices', hint: 'Every browser and phone, this one too.' },
  { scope: 'others', label: 'Other devices', hint: 'You stay signed in here.' },
];

/**
 * Sign-out, choosing where. Ending this device's session fires the client's SIGNED_OUT, on
 * which the app logs out locally and goes to the home page (app/root.tsx).
 */
export function SignOut() {
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<{ scope: Scope }>({ defaultValues: { scope: 'local' } });

  const signOut = handleSubmit(async ({ scope }) => {
    setError(null);
    setStatus(null);
    try {
      const { auth } = await getAuthClient();
      const { error: failure } = await auth.signOut({ scope });
      if (failure) setError(authErrorMessage(failure, 'Sign out failed'));
      else if (scope === 'others') setStatus('Your other devices are signed out.');
    } catch (failure) {
      setError(authErrorMessage(failure, 'Sign out failed'));
    }
  });

  return (
    <section className="card profile-section" aria-labelledby="sign-out-title">
      <h2 id="sign-out-title">Sign out</h2>
      <form onSubmit={signOut} noValidate>
        <fieldset>
          <legend className="visually-hidden">Sign out of</legend>
          {SCOPES.map(({ scope, label, hint }) => (
            <div key={scope} className="check">
              <input
                id={`sign-out-${scope}`}
                type="radio"
                value={scope}
                aria-describedby={`sign-out-${scope}-hint`}
                {...register('scope')}
              />
              <span className="check__text">
                <label htmlFor={`sign-out-${scope}`}>{label}</label>
                <span id={`sign-out-${scope}-hint`} className="muted check__hint">
                  {hint}
                </span>
              </span>
            </div>
          ))}
        </fieldset>
        <FormAlert message={error} />
        <button className="button button--primary" type="submit" disabled={formState.isSubmitting}>
          {formState.isSubmitting ? 'Signing out…' : 'Sign out'}
        </button>
      </form>
      <FormStatus message={status} />
    </section>
  );
}
