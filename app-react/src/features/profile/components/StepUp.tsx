import { useCallback, useState } from 'react';

import { OneTimeCodeForm } from '@/components/OneTimeCodeForm';
import { authErrorCode, authErrorMessage, getAuthClient, needsSecondFactor } from '@/lib/auth';

type Answer = (verified: boolean) => void;

/**
 * Some changes need the session at `aal2` when the account has a verified authenticator app
 * (changing the password, removing a verified factor, adding another). `withAal2(action)` asks
 * for a code first when the session is not there yet, and once more if the service still
 * answers `insufficient_aal`; `prompt` is the code form, to render where the person is looking.
 * Answers null when the person cancelled.
 */
export function useStepUp() {
  const [answer, setAnswer] = useState<Answer | null>(null);

  const askForCode = useCallback(() => new Promise<boolean>((resolve) => setAnswer(() => resolve)), []);

  const withAal2 = useCallback(
    async <T extends { error: unknown }>(action: () => Promise<T>): Promise<T | null> => {
      if ((await needsSecondFactor()) && !(await askForCode())) return null;
      const result = await action();
      if (authErrorCode(result.error) !== 'insufficient_aal') return result;
      return (await askForCode()) ? action() : null;
    },
    [askForCode],
  );

  const prompt = answer ? (
    <CodePrompt
      onDone={(verified) => {
        answer(verified);
        setAnswer(null);
      }}
    />
  ) : null;
  return { withAal2, prompt };
}

/** The six-digit code of the account's authenticator app, which raises the session to aal2. */
function CodePrompt({ onDone }: { onDone: Answer }) {
  const verify = async (code: string) => {
    try {
      const { auth } = await getAuthClient();
      const { data: factors, error: listFailure } = await auth.mfa.listFactors();
      const factor = factors?.totp[0];
      if (!factor) return authErrorMessage(listFailure, 'No authenticator app is set up for this account.');
      const { error } = await auth.mfa.challengeAndVerify({ factorId: factor.id, code });
      if (error) return authErrorMessage(error, 'Verification failed');
      onDone(true);
      return null;
    } catch (error) {
      return authErrorMessage(error, 'Verification failed');
    }
  };

  return (
    <OneTimeCodeForm
      className="step-up"
      hint="To continue, enter the six-digit code from your authenticator app."
      submitLabel="Verify"
      onCode={verify}
    >
      <button className="button" type="button" onClick={() => onDone(false)}>
        Cancel
      </button>
    </OneTimeCodeForm>
  );
}
