import { useState } from 'react';

import { FormStatus } from '@/components/form';
import { NewPasswordForm } from '@/components/NewPasswordForm';
import { getAuthClient, passwordErrorMessage, useAuthState } from '@/lib/auth';

import { useStepUp } from './StepUp';

/** A new password for the signed-in person (at aal2 when they have an authenticator app). */
export function ChangePassword() {
  const [saved, setSaved] = useState(false);
  const { withAal2, prompt } = useStepUp();
  const authState = useAuthState();
  const username = authState.status === 'signed-in' ? authState.user.email : undefined;

  const save = async (password: string) => {
    setSaved(false);
    try {
      const { auth } = await getAuthClient();
      const result = await withAal2(() => auth.updateUser({ password }));
      if (!result) return 'Cancelled: your password is unchanged.';
      if (result.error) return passwordErrorMessage(result.error, 'Password update failed');
      setSaved(true);
      return null;
    } catch (error) {
      return passwordErrorMessage(error, 'Password update failed');
    }
  };

  return (
    <section className="card profile-section" aria-labelledby="password-title">
      <h2 id="password-title">Password</h2>
      {prompt}
      <div hidden={prompt !== null}>
        <NewPasswordForm id="change" username={username} submitLabel="Change password" onSave={save} />
      </div>
      <FormStatus message={saved ? 'Your password is changed.' : null} />
    </section>
  );
}
