import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';

import { LoadingStatus } from '@/components/LoadingStatus';
import { FieldError, FormAlert, FormStatus, fieldProps } from '@/components/form';
import { authErrorMessage, getAuthClient } from '@/lib/auth';

import { type Factor, invalidateFactors, useFactors } from '../api/factors';
import { qrCodeSrc } from '../qr-code';
import { useStepUp } from './StepUp';

interface Enrolment {
  factorId: string;
  qrCode: string;
  secret: string;
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

function factorName(factor: Factor): string {
  return factor.friendly_name || `Authenticator app (set up ${dateFormat.format(new Date(factor.created_at))})`;
}

/**
 * Two-step sign-in with an authenticator app (TOTP): set one up by QR code or by typing its key,
 * confirm it with a first code, and remove it. Removing a verified app, or adding a second,
 * needs the session at aal2.
 */
export function AuthenticatorApps() {
  const queryClient = useQueryClient();
  const factors = useFactors();
  const { withAal2, prompt } = useStepUp();
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const verified = factors.data?.filter((factor) => factor.status === 'verified') ?? [];

  const refresh = () => invalidateFactors(queryClient);

  const start = async () => {
    setError(null);
    setStatus(null);
    setBusy(true);
    try {
      const { auth } = await getAuthClient();
      // A set-up left unfinished (page closed before the first code) is dropped first: it
      // counts towards the account's limit of factors and can never be used.
      for (const factor of factors.data ?? []) {
        if (factor.status !== 'verified') await auth.mfa.unenroll({ factorId: factor.id });
      }
      const result = await withAal2(() => auth.mfa.enroll({ factorType: 'totp' }));
      if (!result) return;
      if (result.error) {
        setError(authErrorMessage(result.error, 'Could not set up an authenticator app'));
        return;
      }
      const { id, totp } = result.data;
      setEnrolment({ factorId: id, qrCode: totp.qr_code, secret: totp.secret });
    } catch (failure) {
      setError(authErrorMessage(failure, 'Could not set up an authenticator app'));
    } finally {
      setBusy(false);
      await refresh();
    }
  };

  const finish = async (added: boolean) => {
    setEnrolment(null);
    if (added) setStatus('Authenticator app added: logging in will ask for a code from it.');
    await refresh();
  };

  const remove = async (factor: Factor) => {
    setError(null);
    setStatus(null);
    setBusy(true);
    try {
      const { auth } = await getAuthClient();
      const action = () => auth.mfa.unenroll({ factorId: factor.id });
      // An unverified factor protects nothing yet, so removing it needs no code.
      const result = factor.status === 'verified' ? await withAal2(action) : await action();
      if (!result) return;
      if (result.error) setError(authErrorMessage(result.error, 'Could not remove the authenticator app'));
      else setStatus(`${factorName(factor)} removed.`);
    } catch (failure) {
      setError(authErrorMessage(failure, 'Could not remove the authenticator app'));
    } finally {
      setBusy(false);
      await refresh();
    }
  };

  return (
    <section className="card profile-section" aria-labelledby="factors-title">
      <h2 id="factors-title">Authenticator apps</h2>
      <p className="muted">
        With an authenticator app (such as Google Authenticator, 1Password or Aegis), logging in asks for a six-digit code from your phone
        as well as your password.
      </p>
      <LoadingStatus query={factors}>Loading…</LoadingStatus>
      {factors.isError ? <FormAlert message={authErrorMessage(factors.error, 'Could not load your authenticator apps')} /> : null}
      {verified.length > 0 ? (
        <ul className="factor-list">
          {verified.map((factor) => (
            <li key={factor.id} className="factor-list__item">
              <span>{factorName(factor)}</span>
              <button
                className="button"
                type="button"
                disabled={busy || enrolment !== null}
                aria-label={`Remove ${factorName(factor)}`}
                onClick={() => void remove(factor)}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : factors.isSuccess ? (
        <p>No authenticator app is set up.</p>
      ) : null}
      {prompt}
      {enrolment ? (
        <EnrolmentSteps enrolment={enrolment} onDone={(added) => void finish(added)} />
      ) : (
        <button className="button button--primary" type="button" disabled={busy || prompt !== null} onClick={() => void start()}>
          Set up an authenticator app
        </button>
      )}
      <FormAlert message={error} />
      <FormStatus message={status} />
    </section>
  );
}

/** Scan (or type) the key, then prove it works with a first code. */
function EnrolmentSteps({ enrolment, onDone }: { enrolment: Enrolment; onDone: (added: boolean) => void }) {
  const [error, setError] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<{ code: string }>();
  const src = qrCodeSrc(enrolment.qrCode);

  const verify = handleSubmit(async ({ code }) => {
    setError(null);
    try {
      const { auth } = await getAuthClient();
      const { error: failure } = await auth.mfa.challengeAndVerify({ factorId: enrolment.factorId, code: code.trim() });
      if (failure) setError(authErrorMessage(failure, 'Verification failed'));
      else onDone(true);
    } catch (failure) {
      setError(authErrorMessage(failure, 'Verification failed'));
    }
  });

  const cancel = async () => {
    try {
      const { auth } = await getAuthClient();
      await auth.mfa.unenroll({ factorId: enrolment.factorId });
    } finally {
      onDone(false);
    }
  };

  return (
    <form className="enrolment" onSubmit={verify} noValidate aria-label="Set up an authenticator app">
      <ol className="enrolment__steps">
        <li>
          <p>Scan this QR code with your authenticator app:</p>
          {src ? <img className="enrolment__qr" src={src} alt="QR code for your authenticator app" width={192} height={192} /> : null}
        </li>
        <li>
          <div className="field">
            <label htmlFor="enrol-secret">Or type this setup key into the app</label>
            <textarea
              id="enrol-secret"
              className="enrolment__secret"
              readOnly
              rows={2}
              value={enrolment.secret}
              autoComplete="off"
              spellCheck={false}
              onFocus={(event) => event.currentTarget.select()}
            />
          </div>
        </li>
        <li>
          <div className="field">
            <label htmlFor="enrol-code">Then enter the six-digit code the app shows</label>
            <input
              id="enrol-code"
              className="one-time-code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              {...fieldProps('enrol-code', formState.errors.code)}
              {...register('code', { required: 'Enter the code.' })}
            />
            <FieldError id="enrol-code" error={formState.errors.code} />
          </div>
        </li>
      </ol>
      <FormAlert message={error} />
      <div className="actions">
        <button className="button button--primary" type="submit" disabled={formState.isSubmitting}>
          {formState.isSubmitting ? 'Checking…' : 'Verify and turn on'}
        </button>
        <button className="button" type="button" onClick={() => void cancel()}>
          Cancel
        </button>
      </div>
    </form>
  );
}
