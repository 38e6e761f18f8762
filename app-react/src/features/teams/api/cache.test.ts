import { QueryClient, QueryObserver } from '@tanstack/react-query';

import { apiError, fakeApi } from '@/test/fake-api';

import { aTeam, anInvite } from '../test-data';
import { refresh } from './cache';
import { myInvitesQueryOptions } from './get-my-invites';
import { membersQueryOptions } from './get-members';
import { settingsQueryOptions } from './get-settings';
import { teamQueryOptions } from './get-team';
import { teamInvitesQueryOptions } from './get-team-invites';
import { teamsQueryOptions } from './get-teams';

const minutes = (n: number) => n * 60_000;

describe('read cache lifetimes', () => {
  it.each([
    ['the teams list', teamsQueryOptions(), 10],
    ['a team', teamQueryOptions('tm'), 15],
    ['the members', membersQueryOptions('tm'), 5],
    ["a team's invites", teamInvitesQueryOptions('tm'), 3],
    ['my invites', myInvitesQueryOptions(), 5],
    ["a team's settings (the default)", settingsQueryOptions('team', 'tm'), 2],
    ["a member's settings (the default)", settingsQueryOptions('member', 'tm'), 2],
  ])('keeps %s fresh for %i minutes, and never retries', (_, options, lifetime) => {
    expect(options.staleTime).toBe(minutes(lifetime));
    expect(options.retry).toBe(false);
  });

  it("gives a team's and a member's settings different keys", () => {
    expect(settingsQueryOptions('team', 'tm').queryKey).not.toEqual(settingsQueryOptions('member', 'tm').queryKey);
  });
});

describe('a failed read', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('keeps the stale data it had, after one try', async () => {
    const server = fakeApi({ 'GET /teams': () => Response.json({ teams: [aTeam('tm_a')] }) });
    const queryClient = new QueryClient();
    await queryClient.query(teamsQueryOptions());

    server.handlers['GET /teams'] = () => apiError(503, 'unavailable', 'Try again later.');
    await queryClient.refetchQueries({ queryKey: teamsQueryOptions().queryKey });

    const state = queryClient.getQueryState(teamsQueryOptions().queryKey);
    expect(state?.status).toBe('error');
    expect(state?.data).toEqual([aTeam('tm_a')]);
    expect(server.callsTo('GET /teams')).toHaveLength(2);
  });
});

describe('a write', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('is not undone by a read that was on its way when it landed', async () => {
    let answerEarlyRead = () => {};
    const server = fakeApi({
      'GET /users/me/invites': () =>
        new Promise<Response>((resolve) => {
          answerEarlyRead = () => resolve(Response.json({ invites: [anInvite('inv_1')] }));
        }),
    });
    const queryClient = new QueryClient();
    // A screen (the header's count) starts reading the invites...
    const stop = new QueryObserver(queryClient, myInvitesQueryOptions()).subscribe(() => {});
    await vi.waitFor(() => expect(server.callsTo('GET /users/me/invites')).toHaveLength(1));
    // ...the invite is accepted meanwhile, and that read's answer, from before, arrives after.
    server.handlers['GET /users/me/invites'] = () => Response.json({ invites: [] });
    const refreshed = refresh(queryClient, myInvitesQueryOptions().queryKey);
    answerEarlyRead();
    await refreshed;

    expect(await queryClient.query(myInvitesQueryOptions())).toEqual([]);
    stop();
  });
});
