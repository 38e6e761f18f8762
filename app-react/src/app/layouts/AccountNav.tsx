import { useQuery } from '@tanstack/react-query';
import { Suspense, lazy, useState } from 'react';
import { Link } from 'react-router';

import { Icon } from '@/components/Icon';
import { useDisclosure } from '@/components/use-disclosure';
import { paths, profileTabPath } from '@/config/paths';
import { useProfile } from '@/features/profile/api/get-profile';
import { myInvitesQueryOptions } from '@/features/teams/api/get-my-invites';
import { authErrorMessage, getAuthClient, signOutOnThisDevice, useAuthState } from '@/lib/auth';
import { isOffline, useUnsentWrites } from '@/lib/offline/writes';
import { counted } from '@/lib/text';
import { notify } from '@/lib/toast';

// The dialog library is loaded only when a sign-out would drop unsent changes (rare), not with
// every page's header. Those changes are often made offline: should its chunk not load (no service
// worker holds the build yet), the browser's own confirmation asks instead of the header failing.
const ConfirmDialog = lazy(() =>
  import('@/components/ConfirmDialog').then(
    (loaded) => ({ default: loaded.ConfirmDialog }),
    () => ({ default: BrowserConfirm }),
  ),
);

function BrowserConfirm({ title, onConfirm }: { title: string; onConfirm: () => void }) {
  return (
    <button type="button" onClick={() => window.confirm(title) && onConfirm()}>
      Sign out
    </button>
  );
}

interface AccountNavProps {
  /**
   * Fetch the person's pending invites for the count. Only where a page needs a login (the
   * default layout), whose guard has seen the session through its second factor; elsewhere the
   * count comes from what the app has already fetched.
   */
  countInvites?: boolean;
}

/**
 * The header's account corner: for someone signed in, a menu (Profile, My Invites with how many
 * are pending, Sign out) behind a button with their name; otherwise the way in. While a session
 * cookie is being checked it keeps its room empty, so nothing shifts.
 */
export function AccountNav({ countInvites = false }: AccountNavProps) {
  const auth = useAuthState();

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
  return <AccountMenu email={auth.user.email} countInvites={countInvites} />;
}

function AccountMenu({ email, countInvites }: { email: string | undefined; countInvites: boolean }) {
  const profile = useProfile();
  const invites = useQuery({ ...myInvitesQueryOptions(), enabled: countInvites });
  const { open, close, container, buttonProps, panelId } = useDisclosure<HTMLElement>();
  const pending = invites.data?.filter((invite) => invite.status === 'pending').length ?? 0;
  const name = profile?.full_name || profile?.email || email || 'Your account';
  const address = profile?.email || email;
  // Changes made offline and not yet on the server (docs/behaviour.md, "Offline"): signing out
  // would drop them, so it asks first.
  const unsent = useUnsentWrites();
  const [confirming, setConfirming] = useState(false);

  // Ends this device's session; the client's SIGNED_OUT then logs the app out and leaves a page
  // that needs a login for the home page (app/root.tsx, docs/behaviour.md, "Logout").
  const signOut = async () => {
    close();
    // Offline, the auth client cannot reach the server to sign out: this device forgets the session.
    if (isOffline()) {
      signOutOnThisDevice();
      return;
    }
    try {
      const { auth } = await getAuthClient();
      const { error } = await auth.signOut({ scope: 'local' });
      if (error) notify.error(authErrorMessage(error, 'Sign out failed'));
    } catch (error) {
      notify.error(authErrorMessage(error, 'Sign out failed'));
    }
  };

  return (
    <nav ref={container} className="account-nav" aria-label="Account">
      {/* Named by its content rather than an aria-label, which must hold all the text the button
          shows (WCAG 2.5.3, Label in Name): axe reads the initial, name and count run together
          ("AAda Lovelace1"), which no sentence contains. The initial and the count's badge are
          left out of the name, and the words only a screen reader needs are visually hidden, with
          the spaces between words outside them (a name computation trims each element's text). */}
      <button className="account-menu__button" {...buttonProps}>
        <span className="visually-hidden">Account:</span>{' '}
        <span className="account-menu__avatar" aria-hidden="true">
          {name.charAt(0).toUpperCase()}
        </span>
        <span className="account-menu__name">{name}</span>
        {pending > 0 ? <PendingCount pending={pending} words={counted(pending, 'pending invite')} /> : null}
        <Icon name="chevron-down" className="account-menu__caret" />
      </button>
      <div id={panelId} className="account-menu__panel" hidden={!open}>
        <p className="account-menu__who">
          Signed in as <strong>{name}</strong>
          {address && address !== name ? <span>{address}</span> : null}
        </p>
        <ul className="account-menu__list">
          <li>
            <Link to={paths.profile}>Profile</Link>
          </li>
          <li>
            <Link to={profileTabPath('invites')}>
              My Invites
              {pending > 0 ? <PendingCount pending={pending} words={`${pending} pending`} /> : null}
            </Link>
          </li>
          <li>
            {unsent > 0 ? (
              <Suspense
                fallback={
                  <button type="button" disabled>
                    Sign out
                  </button>
                }
              >
                <ConfirmDialog
                  trigger={<button type="button">Sign out</button>}
                  title="Sign out with changes not sent?"
                  confirmLabel="Sign out anyway"
                  open={confirming}
                  onOpenChange={setConfirming}
                  onConfirm={() => {
                    setConfirming(false);
                    void signOut();
                  }}
                >
                  <p>
                    {counted(unsent, 'change')} made on this device {unsent === 1 ? 'has' : 'have'} not reached the server yet. Signing out
                    removes {unsent === 1 ? 'it' : 'them'} from this device for good.
                  </p>
                </ConfirmDialog>
              </Suspense>
            ) : (
              <button type="button" onClick={() => void signOut()}>
                Sign out
              </button>
            )}
          </li>
        </ul>
      </div>
    </nav>
  );
}

/**
 * The badge counting pending invites, shown as a bare number and read as `words` in brackets
 * after the name it follows: "My Invites (2 pending)".
 */
function PendingCount({ pending, words }: { pending: number; words: string }) {
  return (
    <>
      <span className="count-badge" aria-hidden="true">
        {pending}
      </span>{' '}
      <span className="visually-hidden">({words})</span>
    </>
  );
}
