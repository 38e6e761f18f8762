import { QueryClient } from '@tanstack/react-query';
import { screen, waitFor } from '@testing-library/react';
import type { Mock } from 'vitest';

import { profileQueryOptions } from '@/features/profile/api/get-profile';
import { teamStore } from '@/features/teams/store';
import type { Team } from '@/features/teams/types';
import { api } from '@/lib/api-client';
import { syncFromOtherTab } from '@/lib/auth';
import { fakeAuth, fakeSession, resetFakeAuth, setAuthCookie, signIn } from '@/test/fake-auth';
import { renderRoutes } from '@/test/render';

import { AppRoot } from './root';

vi.mock('@supabase/ssr', async () => (await import('@/test/fake-auth')).fakeSsrModule);

const team = { id: 't', public_id: 'tm_1', name: 'Team One', role: 'owner', member_count: 1, created_at: '' };
const profileOf = (id: string) => ({ id, email: `${id}@example.com`, full_name: null, default_team_pid: null, created_at: '' });

let fetchMock: Mock<(input: string) => Promise<Response>>;
/** How many times the profile was fetched (the other calls are the teams'). */
const profileFetches = () => fetchMock.mock.calls.filter(([input]) => input === '/api/v2/users/me').length;

beforeEach(() => {
  resetFakeAuth();
  let served = 0;
  fetchMock = vi.fn(async (url: string) => {
    if (url === '/api/v2/teams') return Response.json({ teams: [team] });
    if (url.endsWith('/settings')) return Response.json({ settings: {} });
    served += 1;
    return Response.json({ ...profileOf(fakeAuth.session?.user.id ?? '?'), full_name: `version ${served}` });
  });
  vi.stubGlobal('fetch', fetchMock);
  localStorage.clear();
  sessionStorage.clear();
  teamStore.getState().reset();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

/** AppRoot over pages: public ones (/, /login, /forgot-password) and one that needs a login (/profile). */
function renderAt(path: string) {
  const queryClient = new QueryClient();
  const { router } = renderRoutes(
    [
      {
        Component: AppRoot,
        children: [
          { index: true, element: <p>Home page</p> },
          { path: '/profile', element: <p>Profile page</p> },
          { path: '/login', element: <p>Login page</p> },
          { path: '/forgot-password', element: <p>Forgot password page</p> },
        ],
      },
    ],
    path,
    queryClient,
  );
  const profile = (userId: string) => queryClient.getQueryData(profileQueryOptions(userId).queryKey);
  return { router, profile, queryClient };
}

describe('the app root follows the session', () => {
  it('loads the profile of the session it starts with', async () => {
    signIn(fakeSession({ id: 'u1' }));
    const { profile } = renderAt('/profile');
    await waitFor(() => expect(profile('u1')).toMatchObject({ id: 'u1' }));
    expect(profileFetches()).toBe(1);
  });

  it('initialises the team store from the profile', async () => {
    signIn(fakeSession({ id: 'u1' }));
    renderAt('/profile');
    await waitFor(() => expect(teamStore.getState().currentTeam).toMatchObject({ public_id: 'tm_1', name: 'Team One' }));
    expect(teamStore.getState().teams).toHaveLength(1);
  });

  it('starts the teams once, not again on each navigation: a deleted current team is not replaced', async () => {
    signIn(fakeSession({ id: 'u1' }));
    const { router } = renderAt('/profile');
    await waitFor(() => expect(teamStore.getState().currentTeam).toMatchObject({ public_id: 'tm_1' }));
    const teamReads = () => fetchMock.mock.calls.filter(([input]) => input === '/api/v2/teams').length;
    const read = teamReads();
    // As deleting the team does: none is current until the person picks one.
    teamStore.getState().removeTeam('tm_1');
    await router.navigate('/');
    await waitFor(() => expect(screen.getByText('Home page')).toBeTruthy());
    await router.navigate('/profile');
    await waitFor(() => expect(screen.getByText('Profile page')).toBeTruthy());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(teamStore.getState().currentTeam).toBeNull();
    expect(teamReads()).toBe(read);
  });

  it('refreshes the profile on auth events: a fresh one is kept, except after USER_UPDATED', async () => {
    signIn(fakeSession({ id: 'u1' }));
    const { profile } = renderAt('/profile');
    await waitFor(() => expect(profile('u1')).toMatchObject({ full_name: 'version 1' }));

    fakeAuth.emit('TOKEN_REFRESHED');
    fakeAuth.emit('SIGNED_IN');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(profileFetches()).toBe(1);

    fakeAuth.emit('USER_UPDATED');
    await waitFor(() => expect(profile('u1')).toMatchObject({ full_name: 'version 2' }));
  });

  it('fetches at once when the user changes', async () => {
    signIn(fakeSession({ id: 'u1' }));
    const { profile } = renderAt('/profile');
    await waitFor(() => expect(profile('u1')).toBeTruthy());
    fakeAuth.emit('SIGNED_IN', fakeSession({ id: 'u2' }));
    await waitFor(() => expect(profile('u2')).toMatchObject({ id: 'u2' }));
  });

  it('logs out locally on SIGNED_OUT: profile and team data gone, and off to the home page', async () => {
    signIn(fakeSession({ id: 'u1' }));
    localStorage.setItem('bobbin:team-store', '{"teams":[]}');
    localStorage.setItem('bobbin:chunk-reload-at', '1');
    const { router, profile } = renderAt('/profile');
    await waitFor(() => expect(profile('u1')).toBeTruthy());
    await waitFor(() => expect(teamStore.getState().currentTeamPublicId).toBe('tm_1'));

    setAuthCookie(false);
    fakeAuth.emit('SIGNED_OUT', null);

    expect(await screen.findByText('Home page')).toBeTruthy();
    expect(router.location?.pathname).toBe('/');
    expect(profile('u1')).toBeUndefined();
    expect(localStorage.getItem('bobbin:team-store')).toBeNull();
    // The in-memory store too, not only its copy.
    expect(teamStore.getState().teams).toEqual([]);
    expect(teamStore.getState().currentTeamPublicId).toBe('');
    // Nothing the app kept of the person is left, in either storage.
    expect(localStorage.getItem('bobbin:chunk-reload-at')).toBeNull();
  });

  // The spec: "Logout ... navigates to /", from public pages too.
  it('goes to the home page from a public page too, but not from the login page', async () => {
    signIn(fakeSession({ id: 'u1' }));
    const { router, profile } = renderAt('/forgot-password');
    await waitFor(() => expect(profile('u1')).toBeTruthy());
    setAuthCookie(false);
    fakeAuth.emit('SIGNED_OUT', null);
    expect(await screen.findByText('Home page')).toBeTruthy();
    expect(router.location?.pathname).toBe('/');

    // "Use another account" on the code prompt ends a half-finished sign-in: the person stays.
    await router.navigate('/login');
    signIn(fakeSession({ id: 'u1' }));
    fakeAuth.emit('SIGNED_IN');
    await waitFor(() => expect(profile('u1')).toBeTruthy());
    setAuthCookie(false);
    fakeAuth.emit('SIGNED_OUT', null);
    await waitFor(() => expect(profile('u1')).toBeUndefined());
    expect(router.location?.pathname).toBe('/login');
  });

  it('forgets every cached query and session flag on SIGNED_OUT (nothing left for the next person)', async () => {
    signIn(fakeSession({ id: 'u1' }));
    const { queryClient, profile } = renderAt('/profile');
    await waitFor(() => expect(profile('u1')).toBeTruthy());
    queryClient.setQueryData(['invites', 'mine'], [{ public_id: 'inv_alice' }]);
    sessionStorage.setItem('bobbin:invites-checked', '["u1"]');

    setAuthCookie(false);
    fakeAuth.emit('SIGNED_OUT', null);

    await waitFor(() => expect(queryClient.getQueryCache().getAll()).toEqual([]));
    expect(sessionStorage.getItem('bobbin:invites-checked')).toBeNull();
    expect(localStorage.getItem('bobbin:person')).toBeNull();
  });

  it('forgets the last person when someone else signs in without a sign-out between', async () => {
    signIn(fakeSession({ id: 'alice' }));
    const { queryClient, profile } = renderAt('/profile');
    await waitFor(() => expect(teamStore.getState().currentTeamPublicId).toBe('tm_1'));
    queryClient.setQueryData(['invites', 'mine'], [{ public_id: 'inv_alice' }]);
    sessionStorage.setItem('bobbin:invites-checked', '["alice"]');

    fakeAuth.emit('SIGNED_IN', fakeSession({ id: 'bob' }));

    await waitFor(() => expect(profile('bob')).toMatchObject({ id: 'bob' }));
    expect(profile('alice')).toBeUndefined();
    expect(queryClient.getQueryData(['invites', 'mine'])).toBeUndefined();
    expect(sessionStorage.getItem('bobbin:invites-checked')).toBeNull();
    expect(localStorage.getItem('bobbin:person')).toBe('bob');
  });

  it('forgets the last person when another tab signed someone else in (the shared record already names them)', async () => {
    signIn(fakeSession({ id: 'alice' }));
    const { queryClient, profile } = renderAt('/profile');
    await waitFor(() => expect(teamStore.getState().currentTeamPublicId).toBe('tm_1'));
    queryClient.setQueryData(['invites', 'mine'], [{ public_id: 'inv_alice' }]);

    // Bob signs in in another tab: it records him first, then this tab hears of it.
    localStorage.setItem('bobbin:person', 'bob');
    signIn(fakeSession({ id: 'bob' }));
    await syncFromOtherTab();

    await waitFor(() => expect(profile('bob')).toMatchObject({ id: 'bob' }));
    expect(profile('alice')).toBeUndefined();
    expect(queryClient.getQueryData(['invites', 'mine'])).toBeUndefined();
  });

  it("forgets a previous person's stored data found at page load", async () => {
    // Alice's team store, as a page load reads it back from storage.
    localStorage.setItem('bobbin:person', 'alice');
    teamStore.getState().setTeams([{ ...team, public_id: 'tm_alice', name: "Alice's Atelier" } as Team]);
    expect(localStorage.getItem('bobbin:team-store')).toContain("Alice's Atelier");
    // Bob's teams have not arrived yet: what is there is what the app kept of Alice.
    let answerTeams: (response: Response) => void = () => {};
    fetchMock.mockImplementation(async (url: string) => {
      if (url === '/api/v2/users/me') return Response.json(profileOf('bob'));
      if (url.endsWith('/settings')) return Response.json({ settings: {} });
      return new Promise<Response>((resolve) => {
        answerTeams = resolve;
      });
    });
    signIn(fakeSession({ id: 'bob' }));
    const { profile } = renderAt('/profile');

    await waitFor(() => expect(profile('bob')).toBeTruthy());
    expect(teamStore.getState().teams).toEqual([]);
    expect(localStorage.getItem('bobbin:team-store') ?? '').not.toContain("Alice's Atelier");
    expect(localStorage.getItem('bobbin:person')).toBe('bob');
    // Let the team initialisation finish, so the next test starts with none running.
    answerTeams(Response.json({ teams: [team] }));
    await waitFor(() => expect(teamStore.getState().loading).toBe(false));
  });

  it('waits for the second factor: no team is loaded before the code, and they are after it', async () => {
    fakeAuth.aal = { currentLevel: 'aal1', nextLevel: 'aal2' };
    signIn(fakeSession({ id: 'u1' }));
    renderAt('/profile');
    await new Promise((resolve) => setTimeout(resolve, 30));
    const teamFetches = () => fetchMock.mock.calls.filter(([input]) => input === '/api/v2/teams').length;
    expect(teamFetches()).toBe(0);

    fakeAuth.aal = { currentLevel: 'aal2', nextLevel: 'aal2' };
    fakeAuth.emit('MFA_CHALLENGE_VERIFIED');

    await waitFor(() => expect(teamStore.getState().currentTeamPublicId).toBe('tm_1'));
    expect(teamFetches()).toBe(1);
  });

  it('an answer 401 insufficient_aal takes the person to the code prompt, to come back after', async () => {
    signIn(fakeSession({ id: 'u1' }));
    const { router } = renderAt('/profile?tab=team');
    await waitFor(() => expect(teamStore.getState().currentTeamPublicId).toBe('tm_1'));
    fetchMock.mockImplementation(async () =>
      Response.json({ code: 'insufficient_aal', message: 'Enter the code from your authenticator app to continue.' }, { status: 401 }),
    );

    await expect(api('/teams')).rejects.toMatchObject({ code: 'insufficient_aal' });

    await waitFor(() => expect(router.location?.pathname).toBe('/login'));
    expect(router.location?.search).toBe(`?${new URLSearchParams({ redirect: '/profile?tab=team' })}`);
    // The session's user is read again, so an app added on another device is asked for.
    expect(fakeAuth.auth.refreshSession).toHaveBeenCalled();
  });

  it('a refusal whose trip to the code prompt is overtaken by another keeps the first address to come back to', async () => {
    signIn(fakeSession({ id: 'u1' }));
    const { router } = renderAt('/profile?tab=team');
    await waitFor(() => expect(teamStore.getState().currentTeamPublicId).toBe('tm_1'));
    // Reading the session again takes a while...
    let reread: (() => void) | undefined;
    fakeAuth.auth.refreshSession.mockImplementation(
      () =>
        new Promise((resolve) => {
          reread = () => {
            resolve({ data: { session: null, user: null }, error: null });
          };
        }),
    );
    fetchMock.mockImplementation(async () =>
      Response.json({ code: 'insufficient_aal', message: 'Enter the code from your authenticator app to continue.' }, { status: 401 }),
    );
    await expect(api('/teams')).rejects.toMatchObject({ code: 'insufficient_aal' });
    await waitFor(() => expect(reread).toBeDefined());

    // ...and meanwhile an earlier trip has reached the prompt.
    const prompt = `/login?${new URLSearchParams({ redirect: '/profile?tab=team' })}`;
    await router.navigate(prompt);
    expect(await screen.findByText('Login page')).toBeTruthy();
    reread?.();

    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(`${router.location?.pathname}${router.location?.search}`).toBe(prompt);
  });

  it('logs out when another tab signed out', async () => {
    signIn(fakeSession({ id: 'u1' }));
    const { router, profile } = renderAt('/profile');
    await waitFor(() => expect(profile('u1')).toBeTruthy());

    setAuthCookie(false);
    await syncFromOtherTab();

    expect(await screen.findByText('Home page')).toBeTruthy();
    expect(router.location?.pathname).toBe('/');
    expect(profile('u1')).toBeUndefined();
  });

  it('loads the profile when another tab signed in (a tab that never loaded the client)', async () => {
    const { profile } = renderAt('/');
    expect(fakeAuth.created).toBe(0);

    signIn(fakeSession({ id: 'u3' }));
    await syncFromOtherTab();

    await waitFor(() => expect(profile('u3')).toMatchObject({ id: 'u3' }));
    expect(screen.getByText('Home page')).toBeTruthy();
  });
});
