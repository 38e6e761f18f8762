import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';

import { paths } from '@/config/paths';
import { authErrorMessage, getAuthClient } from '@/lib/auth';

import { AuthCard, AuthError } from './AuthCard';

/** `/auth/reset`: a new password, for the person the recovery link signed in. */
export function ResetPage() {
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<{ password: string }>();

  const save = handleSubmit(async ({ password }) => {
    setError(null);
    const { auth } = await getAuthClient();
    const { error: failure } = await auth.updateUser({ password });
    if (failure) setError(authErrorMessage(failure, 'Password update failed'));
    else await navigate(paths.home, { replace: true });
  });

  return (
    <AuthCard title="Choose a new password">
      <form onSubmit={save} noValidate>
        <div className="field">
          <label htmlFor="reset-password">New password</label>
          <input
            id="reset-password"
            type="password"
            autoComplete="new-password"
            minLength={8}
            required
            {...register('password')}
          />
        </div>
        <AuthError message={error} />
        <button className="button auth__submit" type="submit" disabled={formState.isSubmitting}>
          Save the new password
        </button>
      </form>
    </AuthCard>
  );
}
