import { useState } from 'react';
import { Link } from 'react-router';

import { FormStatus } from '@/components/form';
import { type NewPasswordFailure, NewPasswordForm } from '@/components/NewPasswordForm';
import { paths } from '@/config/paths';
import { authErrorCode, getAuthClient, passwordErrorMessage, useAuthState } from '@/lib/auth';

import { AuthCard } from './AuthCard';

/**
 * What the auth service's refusal says: a recovery link's session may set a new password without
 * the old one only in its first 10 minutes (docs/behaviour.md), after which a new link is needed.
 */
function resetFailure(error: unknown): NewPasswordFailure {
  if (authErrorCode(error) === 'current_password_required') {
    return { message: 'This reset link was opened more than 10 minutes ago: ask for a new link.' };
  }
  return { message: passwordErrorMessage(error, 'Password update failed') };
}

/** `/auth/reset`: a new password, for the person the recovery link signed in. */
export function ResetPage() {
  const [saved, setSaved] = useState(false);
  const authState = useAuthState();
  const username = authState.status === 'signed-in' ? authState.user.email : undefined;

  const save = async (password: string): Promise<NewPasswordFailure> => {
    try {
      const { auth } = await getAuthClient();
      const { error } = await auth.updateUser({ password });
      if (error) return resetFailure(error);
      setSaved(true);
      return null;
    } catch (error) {
      return resetFailure(error);
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
        <>
          <NewPasswordForm id="reset" username={username} submitLabel="Save the new password" onSave={save} />
          <p className="auth__links">
            <Link to={paths.forgotPassword}>Ask for a new reset link</Link>
          </p>
        </>
      )}
    </AuthCard>
  );
}
