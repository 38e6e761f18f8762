import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';

import { paths, publicPaths } from '@/config/paths';
import { clearProfile } from '@/features/profile/api/get-profile';
import { connectTeamStore } from '@/features/teams/connect';
import { SelectTeamContext } from '@/features/teams/select-team';
import { type AuthEvent, getAuthState, onAuthEvent, startAuth } from '@/lib/auth';
import { clearLocalTeamData } from '@/lib/team-data';

import { resetPendingInvitesGuard } from './guards';
import { refreshSession, selectTeam } from './teams';

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
 * profile (a changed user, USER_UPDATED, forces it) and initialise the team store from it;
 * sign-out here or in another tab is a local logout: the profile and the team data are cleared,
 * and a page that needs a login is left for the home page. It also keeps the team store in step
 * with the data cache, and gives the pages the team selection (which saves the default team).
 */
export function AppRoot() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const pathnameRef = useRef(pathname);
  pathnameRef.current = pathname;
  // Team initialisation needs the query too (where a sign-in page goes next).
  const locationRef = useRef(pathname + search);
  locationRef.current = pathname + search;

  useEffect(() => connectTeamStore(queryClient), [queryClient]);
  const select = useCallback((publicId: string) => selectTeam(queryClient, publicId), [queryClient]);

  useEffect(() => {
    const localLogout = async () => {
      await clearProfile(queryClient);
      clearLocalTeamData();
      resetPendingInvitesGuard();
      // On a public page (the sign-in screens, the home page) there is nothing to leave.
      if (!publicPaths.has(pathnameRef.current)) await navigate(paths.home, { replace: true });
    };
    const stop = onAuthEvent((event, state) => {
      if (event === 'SIGNED_OUT') {
        void localLogout();
      } else if (REFRESHING.has(event) && state.status === 'signed-in') {
        const force = event === 'USER_UPDATED';
        void refreshSession(queryClient, state.user, { force, location: locationRef.current });
      }
    });
    startAuth();
    // The login guard may have started the client before this listener was there, so its
    // INITIAL_SESSION went unheard: catch up.
    const state = getAuthState();
    if (state.status === 'signed-in') void refreshSession(queryClient, state.user, { location: locationRef.current });
    return stop;
  }, [queryClient, navigate]);

  return (
    <SelectTeamContext value={select}>
      <Outlet />
    </SelectTeamContext>
  );
}
