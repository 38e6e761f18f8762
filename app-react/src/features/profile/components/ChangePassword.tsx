import { useState } from 'react';

import { FormStatus } from '@/components/form';
import { type NewPasswordFailure, NewPasswordForm } from '@/components/NewPasswordForm';
import { authErrorCode, getAuthClient, passwordErrorMessage, useAuthState } from '@/lib/auth';

import { useStepUp } from './StepUp';

/** What the auth service's refusals of the current password say, at that field. */
const CURRENT_PASSWORD_ERRORS: Record<string, string> = {
  current_password_required: 'Enter your current password.',
  current_password_mismatch: 'That is not your current password.',
};

/** Why a password change failed, at the field it concerns. */
function changeFailure(error: unknown): NewPasswordFailure {
  const atCurrent = CURRENT_PASSWORD_ERRORS[authErrorCode(error) ?? ''];
  if (atCurrent) return { message: atCurrent, field: 'current' };
  return { message: passwordErrorMessage(error, 'Password update failed') };
}

/**
 * A new password for the signed-in person, with their current one (so that a browser left
 * signed in is not enough to take the account), at aal2 when they have an authenticator app.
 */
export function ChangePassword() {
  const [saved, setSaved] = useState(false);
  const { withAal2, prompt } = useStepUp();
  const authState = useAuthState();
  const username = authState.status === 'signed-in' ? authState.user.email : undefined;

  const save = async (password: string, current: string | undefined): Promise<NewPasswordFailure> => {
    setSaved(false);
    try {
      const { auth } = await getAuthClient();
      // An account that never had a password sends none (the service then asks for a recent sign-in).
      const attributes = current ? { password, current_password: current } : { password };
      const result = await withAal2(() => auth.updateUser(attributes));
      if (!result) return { message: 'Cancelled: your password is unchanged.' };
      if (result.error) return changeFailure(result.error);
      setSaved(true);
      return null;
    } catch (error) {
      return changeFailure(error);
    }
  };

  return (
    <section className="card profile-section" aria-labelledby="password-title">
      <h2 id="password-title">Password</h2>
      {prompt}
      <div hidden={prompt !== null}>
        <NewPasswordForm id="change" username={username} askCurrent submitLabel="Change password" onSave={save} />
      </div>
      <FormStatus message={saved ? 'Your password is changed.' : null} />
    </section>
  );
}
