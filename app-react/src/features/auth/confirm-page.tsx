import { Link } from 'react-router';

import { paths } from '@/config/paths';

import { AuthCard } from './AuthCard';

/** `/auth/confirm`: where the confirmation link lands, signed in, through `/auth/callback`. */
export function ConfirmPage() {
  return (
    <AuthCard title="E-mail confirmed">
      <p role="status">Your address is confirmed and you are signed in.</p>
      <p className="auth__links">
        <Link className="button button--primary auth__submit" to={paths.home}>
          Continue
        </Link>
      </p>
    </AuthCard>
  );
}
