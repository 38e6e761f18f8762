import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useLayoutEffect, useRef } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';

import { paths, publicPaths } from '@/config/paths';
import { SelectTeamContext } from '@/features/teams/select-team';
import { whenSecondFactorNeeded } from '@/lib/api-client';
import { type AuthEvent, type SignedInUser, getAuthState, needsSecondFactor, onAuthEvent, reloadSessionUser, startAuth } from '@/lib/auth';
import { loadChunk } from '@/lib/lazy-route';

import { claimForPerson, forgetPerson } from './forget-person';

/**
 * The profile and team start-up (./teams.ts), a chunk of its own: a signed-in person's only, so a
 * visitor's first page load does without it (docs/benchmarks.md, "Front-end weight"). Forgetting a person
 * (./forget-person.ts) stays in the first load: a sign-out must never wait for the network.
 */
const teams = () => loadChunk(() => import('./teams'));

/** The events that refresh the profile (docs/behaviour.md, "The session in the browser"). */
const REFRESHING: ReadonlySet<AuthEvent> = new Set<AuthEvent>([
  'SIGNED_IN',
  'TOKEN_REFRESHED',
  'USER_UPDATED',
  'PASSWORD_RECOVERY',
  'INITIAL_SESSION',
  // Another tab changed the session, and a session exists.
  'SYNCED',
  // The second factor's code raised the session to aal2: the API answers now.
  'MFA_CHALLENGE_VERIFIED',
]);

/**
 * The root of every page: follows the session (docs/behaviour.md, "The session in the browser").
 * Auth events refresh the profile (a changed user, USER_UPDATED, forces it) and initialise the team
 * store from it; sign-out here or in another tab is a local logout: everything the app holds of the
 * person is forgotten (./forget-person.ts), and the page is left for the home page. It also gives the pages the team selection (which saves the default team).
 */
export function AppRoot() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const pathnameRef = useRef(pathname);
  // useNavigate() answers a new function on each new path: read through a ref, so the listeners
  // below are set up once, not again (with a catch-up refresh of the teams) on every navigation.
  const navigateRef = useRef(navigate);
  // Team initialisation needs the query too (where a sign-in page goes next).
  const locationRef = useRef(pathname + search);
  // The auth events below read where the person is now. Set after each commit, not during
  // render, which React may repeat or drop.
  useLayoutEffect(() => {
    pathnameRef.current = pathname;
    locationRef.current = pathname + search;
    navigateRef.current = navigate;
  });

  const select = useCallback(async (publicId: string) => (await teams()).selectTeam(queryClient, publicId), [queryClient]);

  useEffect(() => {
    const localLogout = async () => {
      await forgetPerson(queryClient);
      // Logout goes to / from every page, public ones included (docs/behaviour.md, "Logout"),
      // but the login page: there a sign-out ends a half-finished sign-in ("Use another
      // account"), and the person stays to sign in.
      if (pathnameRef.current !== paths.login) await navigateRef.current(paths.home, { replace: true });
    };
    const follow = async (user: SignedInUser, force: boolean) => {
      // Someone else signed in on this browser (no sign-out between): the last person's data
      // goes before anything of the new one is loaded or shown.
      if (claimForPerson(queryClient, user.id)) {
        await forgetPerson(queryClient);
        claimForPerson(queryClient, user.id);
      }
      // A session still waiting for its second factor's code cannot read the API (401
      // `insufficient_aal`); MFA_CHALLENGE_VERIFIED follows the code.
      if (await needsSecondFactor()) return;
      let start: Awaited<ReturnType<typeof teams>>;
      try {
        start = await teams();
      } catch (error) {
        // The chunk is missing even after its retries (and the page reloaded lately): the pages
        // work on, without a current team, until the next page load.
        console.error('The team start-up could not be loaded:', error);
        return;
      }
      await start.refreshSession(queryClient, user, { force, location: locationRef.current });
    };
    const stop = onAuthEvent((event, state) => {
      if (event === 'SIGNED_OUT') {
        void localLogout();
      } else if (REFRESHING.has(event) && state.status === 'signed-in') {
        void follow(state.user, event === 'USER_UPDATED');
      }
    });
    // An API call refused for want of the second factor's code (an authenticator app added on
    // another device since this session began): ask for the code, then come back here.
    // Several calls of a page may be refused at once: one trip to the prompt.
    let asking: Promise<void> | undefined;
    const stopAsking = whenSecondFactorNeeded(() => {
      if (publicPaths.has(pathnameRef.current)) return;
      // Where the refused call was made, read now: a call refused just as an earlier trip to the
      // prompt ends would otherwise find the prompt's own address here after the wait below.
      const from = locationRef.current;
      asking ??= (async () => {
        await reloadSessionUser();
        // Already taken to the prompt (or to another public page) meanwhile.
        if (publicPaths.has(pathnameRef.current)) return;
        const search = new URLSearchParams({ redirect: from });
        await navigateRef.current(`${paths.login}?${search}`, { replace: true });
      })().finally(() => {
        asking = undefined;
      });
    });
    startAuth();
    // The login guard may have started the client before this listener was there, so its
    // INITIAL_SESSION went unheard: catch up.
    const state = getAuthState();
    if (state.status === 'signed-in') void follow(state.user, false);
    return () => {
      stop();
      stopAsking();
    };
  }, [queryClient]);

  return (
    <SelectTeamContext value={select}>
      <Outlet />
    </SelectTeamContext>
  );
}
