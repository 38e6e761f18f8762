import { useSearchParams } from 'react-router';

import { LoginPage } from '@/features/auth/login-page';
import { RegisterPage } from '@/features/auth/register-page';
import { InviteNotice } from '@/features/teams/components/InviteNotice';

// The login and register pages, told of the invite their `redirect` leads to (if it does), so a
// signed-out invitee sees which team invites them and who before signing in or registering.

export function LoginRoute() {
  const [params] = useSearchParams();
  return <LoginPage notice={<InviteNotice redirect={params.get('redirect')} />} />;
}

export function RegisterRoute() {
  const [params] = useSearchParams();
  return <RegisterPage notice={<InviteNotice redirect={params.get('redirect')} />} />;
}
