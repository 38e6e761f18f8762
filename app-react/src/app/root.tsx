import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';

import { paths, publicPaths } from '@/config/paths';
import { clearProfile, refreshProfile } from '@/features/profile/api/get-profile';
import { type AuthEvent, getAuthState, onAuthEvent, startAuth } from '@/lib/auth';
import { clearLocalTeamData } from '@/lib/team-data';

/** Spec, section 4: these events refresh the profile. */
const REFRESHING: ReadonlySet<AuthEvent> = new Set<AuthEvent>([
  'SIGNED_IN',
  'TOKEN_REFRESHED',
  'USER_UPDATED',
  'PASSWORD_RECOVERY',
  'INITIAL_SESSION',
  // Another tab changed the session, and a session exists.
  'SYNCED',
]);

/**
 * The root of every page: follows the session (spec, section 4). Auth events refresh the
 * profile (a changed user, USER_UPDATED, forces it); sign-out here or in another tab is a local
 * logout: the profile and the team data are cleared, and a page that needs a login is left for
 * the home page.
 */
export function AppRoot() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const pathnameRef = useRef(pathname);
  pathnameRef.current = pathname;

  useEffect(() => {
    const localLogout = async () => {
      await clearProfile(queryClient);
      clearLocalTeamData();
      // On a public page (the sign-in screens, the home page) there is nothing to leave.
      if (!publicPaths.has(pathnameRef.current)) await navigate(paths.home, { replace: true });
    };
    const stop = onAuthEvent((event, state) => {
      if (event === 'SIGNED_OUT') {
        void localLogout();
      } else if (REFRESHING.has(event) && state.status === 'signed-in') {
        // TODO(teams): initialise the team store from the profile here (spec, section 4).
        void refreshProfile(queryClient, state.user.id, event === 'USER_UPDATED');
      }
    });
    startAuth();
    // The login guard may have started the client before this listener was there, so its
    // INITIAL_SESSION went unheard: catch up.
    const state = getAuthState();
    if (state.status === 'signed-in') void refreshProfile(queryClient, state.user.id);
    return stop;
  }, [queryClient, navigate]);

  return <Outlet />;
}
