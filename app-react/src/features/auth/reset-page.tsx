import { useState } from 'react';
import { Link } from 'react-router';

import { FormStatus } from '@/components/form';
import { NewPasswordForm } from '@/components/NewPasswordForm';
import { paths } from '@/config/paths';
import { getAuthClient, passwordErrorMessage, useAuthState } from '@/lib/auth';

import { AuthCard } from './AuthCard';

/** `/auth/reset`: a new password, for the person the recovery link signed in. */
export function ResetPage() {
  const [saved, setSaved] = useState(false);
  const authState = useAuthState();
  const username = authState.status === 'signed-in' ? authState.user.email : undefined;

  const save = async (password: string) => {
    try {
      const { auth } = await getAuthClient();
      const { error } = await auth.updateUser({ password });
      if (error) return passwordErrorMessage(error, 'Password update failed');
      setSaved(true);
      return null;
    } catch (error) {
      return passwordErrorMessage(error, 'Password update failed');
    }
  };

  return (
    <AuthCard title="Choose a new password">
      {saved ? (
        <>
          <FormStatus message="Your new password is saved, and you are signed in." />
          <p className="auth__links">
            <Link className="button button--primary auth__submit" to={paths.dashboard}>
              Continue
            </Link>
          </p>
        </>
      ) : (
        <NewPasswordForm id="reset" username={username} submitLabel="Save the new password" onSave={save} />
      )}
    </AuthCard>
  );
}
