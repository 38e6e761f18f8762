import { Link } from 'react-router';

import { paths } from '@/config/paths';
import { useProfile } from '@/features/profile/api/get-profile';
import { useAuthState } from '@/lib/auth';

/**
 * The header's account corner: for someone signed in, the way to the team's inventory and who
 * they are (a link to the profile page); otherwise the way in.
 * While a session cookie is being checked it keeps its room empty, so nothing shifts.
 */
export function AccountNav() {
  const auth = useAuthState();
  const profile = useProfile();

  if (auth.status === 'unknown') return <div className="account-nav" aria-hidden="true" />;
  if (auth.status === 'signed-out') {
    return (
      <nav className="account-nav" aria-label="Account">
        <Link to={paths.login}>Log in</Link>
        <Link className="button" to={paths.register}>
          Register
        </Link>
      </nav>
    );
  }
  const name = profile?.full_name || profile?.email || auth.user.email || 'Your account';
  return (
    <nav className="account-nav" aria-label="Account">
      <Link to={paths.inventory}>Inventory</Link>
      <Link className="account-nav__me" to={paths.profile}>
        <span className="visually-hidden">Profile: </span>
        <span className="account-nav__name">{name}</span>
      </Link>
    </nav>
  );
}
