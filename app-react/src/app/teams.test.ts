import { QueryClient } from '@tanstack/react-query';

import { profileQueryOptions } from '@/features/profile/api/get-profile';
import { teamStore } from '@/features/teams/store';
import { aTeam } from '@/features/teams/test-data';
import { fakeApi } from '@/test/fake-api';

import { onTheWayToAnInvite, selectTeam } from './teams';

describe('the personal team is not made on the way to an invite', () => {
  it.each([
    ['/profile/invites/accept?token=abc', true],
    ['/login?redirect=%2Fprofile%2Finvites%2Faccept%3Ftoken%3Dabc', true],
    ['/auth/callback?code=1&next=%2Fprofile%2Finvites%2Faccept%3Ftoken%3Dabc', true],
    ['/dashboard', false],
    ['/login?redirect=%2Fteam', false],
    ['/profile?tab=invites', false],
  ])('%s: %s', (location, expected) => {
    expect(onTheWayToAnInvite(location)).toBe(expected);
  });
});

describe('selecting a team', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('loads its details and members, makes it current (its settings follow), then saves it as the default', async () => {
    const server = fakeApi({
      'GET /teams/tm_b': () => Response.json({ team: aTeam('tm_b') }),
      'GET /teams/tm_b/members': () => Response.json({ members: [] }),
      'GET /teams/tm_b/settings': () => Response.json({ settings: {} }),
      'GET /teams/tm_b/members/settings': () => Response.json({ settings: {} }),
      'PATCH /users/me/default-team': () =>
        Response.json({ id: 'u1', email: 'a@b.c', full_name: null, default_team_pid: 'tm_b', created_at: '' }),
    });
    const queryClient = new QueryClient();
    await selectTeam(queryClient, 'tm_b');
    expect(server.calls.map((call) => call.route)).toEqual([
      'GET /teams/tm_b',
      'GET /teams/tm_b/members',
      'GET /teams/tm_b/settings',
      'GET /teams/tm_b/members/settings',
      'PATCH /users/me/default-team',
    ]);
    expect(server.callsTo('PATCH /users/me/default-team')).toEqual([{ teamPublicId: 'tm_b' }]);
    expect(teamStore.getState().currentTeamPublicId).toBe('tm_b');
    // The cached profile names the new default, so the next initialisation keeps it.
    expect(queryClient.getQueryData(profileQueryOptions('u1').queryKey)).toMatchObject({ default_team_pid: 'tm_b' });
  });
});
