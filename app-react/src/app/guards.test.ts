import { QueryClient } from '@tanstack/react-query';

import { myInvitesQueryOptions } from '@/features/teams/api/get-my-invites';
import { teamStore } from '@/features/teams/store';
import { anInvite } from '@/features/teams/test-data';
import { type FakeApi, apiError, fakeApi } from '@/test/fake-api';

import { loginRedirect, pendingInvitesRedirect, resetPendingInvitesGuard } from './guards';

const at = (path: string) => new URL(path, 'https://bobbin.example');

describe('the login guard', () => {
  it.each(['/', '/login', '/register', '/reset', '/auth/callback', '/forgot-password', '/login/', '/auth/callback?code=abc'])(
    'lets a visitor who is not logged in open %s',
    (path) => {
      expect(loginRedirect(at(path), false)).toBeNull();
    },
  );

  it.each([
    ['/profile', '/login?redirect=%2Fprofile'],
    ['/profile?tab=security', '/login?redirect=%2Fprofile%3Ftab%3Dsecurity'],
    [
      '/tools/thread-converter?thread=isacord-polyester:1902&to=a,b',
      '/login?redirect=%2Ftools%2Fthread-converter%3Fthread%3Disacord-polyester%3A1902%26to%3Da%2Cb',
    ],
    ['/auth/confirm', '/login?redirect=%2Fauth%2Fconfirm'],
    ['/no/such/page', '/login?redirect=%2Fno%2Fsuch%2Fpage'],
    ['/loginx', '/login?redirect=%2Floginx'],
  ])('sends a visitor who is not logged in from %s to %s', (path, target) => {
    expect(loginRedirect(at(path), false)).toBe(target);
  });

  it('keeps the full original path, query included, for after the login', () => {
    const target = loginRedirect(at('/profile?tab=security&x=1'), false) ?? '';
    expect(new URL(target, 'https://bobbin.example').searchParams.get('redirect')).toBe('/profile?tab=security&x=1');
  });

  it("lets a visitor without an account open a quote's link, and only that under /q", () => {
    expect(loginRedirect(at('/q/kS8Pn2cX4vQ7tLwE9rYb1mZa6HdJ3fGu0oTiNeRy5Ap'), false)).toBeNull();
    expect(loginRedirect(at('/q/'), false)).toBe('/login?redirect=%2Fq%2F');
    expect(loginRedirect(at('/q/a/b'), false)).toBe('/login?redirect=%2Fq%2Fa%2Fb');
  });

  it('lets a logged-in person open any page', () => {
    expect(loginRedirect(at('/profile?tab=security'), true)).toBeNull();
    expect(loginRedirect(at('/no/such/page'), true)).toBeNull();
  });
});

describe('the pending-invites guard', () => {
  let queryClient: QueryClient;
  let server: FakeApi;

  beforeEach(() => {
    resetPendingInvitesGuard();
    teamStore.getState().reset();
    queryClient = new QueryClient();
    server = fakeApi({ 'GET /users/me/invites': () => Response.json({ invites: [anInvite('inv_1')] }) });
  });

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('sends a person with pending invites to /profile?tab=invites, and stores the invites', async () => {
    expect(await pendingInvitesRedirect(queryClient, at('/dashboard'), 'u1')).toBe('/profile?tab=invites');
    expect(teamStore.getState().myInvites).toEqual([anInvite('inv_1')]);
  });

  it('checks once per session', async () => {
    await pendingInvitesRedirect(queryClient, at('/dashboard'), 'u1');
    expect(await pendingInvitesRedirect(queryClient, at('/team'), 'u1')).toBeNull();
    expect(server.callsTo('GET /users/me/invites')).toHaveLength(1);
    // Another person signing in in this tab is another session.
    expect(await pendingInvitesRedirect(queryClient, at('/team'), 'u2')).toBe('/profile?tab=invites');
  });

  it('checks again after a logout', async () => {
    await pendingInvitesRedirect(queryClient, at('/dashboard'), 'u1');
    resetPendingInvitesGuard();
    expect(await pendingInvitesRedirect(queryClient, at('/dashboard'), 'u1')).toBe('/profile?tab=invites');
  });

  it("does nothing without a session, on a path under /profile/invites, or on a quote's link", async () => {
    expect(await pendingInvitesRedirect(queryClient, at('/dashboard'), null)).toBeNull();
    expect(await pendingInvitesRedirect(queryClient, at('/profile/invites/accept?token=abc'), 'u1')).toBeNull();
    expect(await pendingInvitesRedirect(queryClient, at('/q/kS8Pn2cX4vQ7tLwE9rYb1mZa6HdJ3fGu0oTiNeRy5Ap'), 'u1')).toBeNull();
    expect(server.calls).toEqual([]);
  });

  it('lets a person without invites through', async () => {
    server.handlers['GET /users/me/invites'] = () => Response.json({ invites: [] });
    expect(await pendingInvitesRedirect(queryClient, at('/dashboard'), 'u1')).toBeNull();
  });

  // The spec: "On a failed read stale cached data is returned."
  it('uses the invites cached earlier, or kept in the team store, when the read fails', async () => {
    await queryClient.query(myInvitesQueryOptions());
    await queryClient.invalidateQueries();
    server.handlers['GET /users/me/invites'] = () => apiError(503, 'unavailable', 'Try later.');
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(await pendingInvitesRedirect(queryClient, at('/dashboard'), 'u1')).toBe('/profile?tab=invites');
    expect(server.callsTo('GET /users/me/invites')).toHaveLength(2);

    // A new page load: nothing in the data cache, the team store's copy in localStorage.
    queryClient.clear();
    resetPendingInvitesGuard();
    teamStore.getState().setMyInvites([anInvite('inv_2')]);
    expect(await pendingInvitesRedirect(queryClient, at('/dashboard'), 'u1')).toBe('/profile?tab=invites');
    expect(teamStore.getState().myInvites).toEqual([anInvite('inv_2')]);
    vi.mocked(console.warn).mockRestore();
  });

  it('ignores errors', async () => {
    server.handlers['GET /users/me/invites'] = () => apiError(500, 'internal', 'Broken.');
    expect(await pendingInvitesRedirect(queryClient, at('/dashboard'), 'u1')).toBeNull();
  });
});
