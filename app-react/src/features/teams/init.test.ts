import { QueryClient, QueryObserver } from '@tanstack/react-query';

import { type FakeApi, apiError, fakeApi } from '@/test/fake-api';

import { refresh } from './api/cache';
import { membersQueryOptions } from './api/get-members';
import { putSettings } from './api/get-settings';
import { putTeam } from './api/get-team';
import { teamsQueryOptions } from './api/get-teams';
import { chooseCurrentTeam, initTeams, loadTeam, personalTeamName } from './init';
import { teamStore } from './store';
import { aMember, aTeam } from './test-data';
import type { Team } from './types';

const state = () => teamStore.getState();
let queryClient: QueryClient;

/** A server whose team list is `teams`; POST /teams adds one. */
function serverWith(teams: Team[]): FakeApi {
  return fakeApi({
    'GET /teams': () => Response.json({ teams }),
    'POST /teams': (body) => {
      const team = aTeam('tm_new', 'owner', (body as { name: string }).name);
      teams.push(team);
      return Response.json({ team }, { status: 201 });
    },
    'GET /teams/tm_a/settings': () => Response.json({ settings: { currency: 'EUR' } }),
    'GET /teams/tm_a/members/settings': () => Response.json({ settings: { view: 'grid' } }),
    'GET /teams/tm_b/settings': () => Response.json({ settings: { currency: 'GBP' } }),
    'GET /teams/tm_b/members/settings': () => Response.json({ settings: {} }),
    'GET /teams/tm_new/settings': () => Response.json({ settings: {} }),
    'GET /teams/tm_new/members/settings': () => Response.json({ settings: {} }),
    'GET /teams/tm_b': () => Response.json({ team: aTeam('tm_b', 'admin', 'Team B, fresh') }),
    'GET /teams/tm_b/members': () => Response.json({ members: [aMember('u1', 'admin')] }),
  });
}

beforeEach(() => {
  state().reset();
  queryClient = new QueryClient();
});

afterEach(() => {
  queryClient.clear();
  vi.unstubAllGlobals();
});

describe('team initialisation', () => {
  it("creates '{email}'s Team' for a person with none, then fetches the teams again", async () => {
    const server = serverWith([]);
    await initTeams(queryClient, { email: 'ada@example.com', defaultTeamPid: null, createPersonalTeam: true });

    expect(server.callsTo('POST /teams')).toEqual([{ name: "ada@example.com's Team" }]);
    expect(server.callsTo('GET /teams')).toHaveLength(2);
    expect(state().currentTeam?.name).toBe("ada@example.com's Team");
    expect(personalTeamName('x@y.z')).toBe("x@y.z's Team");
  });

  it("names a new person's team after their full name when they gave one", async () => {
    const server = serverWith([]);
    await initTeams(queryClient, { email: 'ada@example.com', fullName: ' Ada Lovelace ', defaultTeamPid: null, createPersonalTeam: true });

    expect(server.callsTo('POST /teams')).toEqual([{ name: "Ada Lovelace's Team" }]);
    expect(personalTeamName('x@y.z', '   ')).toBe("x@y.z's Team");
  });

  it('creates no team without a user, or on the invite link', async () => {
    const server = serverWith([]);
    await initTeams(queryClient, { email: null, defaultTeamPid: null, createPersonalTeam: true });
    await initTeams(queryClient, { email: 'ada@example.com', defaultTeamPid: null, createPersonalTeam: false });
    expect(server.callsTo('POST /teams')).toEqual([]);
    expect(state().currentTeamPublicId).toBe('');
  });

  it('creates one team when several initialisations overlap', async () => {
    const server = serverWith([]);
    const input = { email: 'ada@example.com', defaultTeamPid: null, createPersonalTeam: true };
    await Promise.all([initTeams(queryClient, input), initTeams(queryClient, input)]);
    expect(server.callsTo('POST /teams')).toHaveLength(1);
  });

  it("makes the profile's default team current, and loads its settings and member settings", async () => {
    serverWith([aTeam('tm_a'), aTeam('tm_b')]);
    await initTeams(queryClient, { email: 'ada@example.com', defaultTeamPid: 'tm_b', createPersonalTeam: true });
    expect(state().currentTeamPublicId).toBe('tm_b');
    expect(state().settings).toEqual({ currency: 'GBP' });
  });

  it('keeps a team the person picked while it ran, instead of switching back to the default', async () => {
    const server = serverWith([aTeam('tm_a'), aTeam('tm_b')]);
    // The team store kept from the last visit: the switcher shows it before the list is read.
    state().setTeams([aTeam('tm_a'), aTeam('tm_b')]);
    state().setCurrentTeam('tm_a');
    let answer = () => {};
    const list = server.handlers['GET /teams']!;
    server.handlers['GET /teams'] = (body) => new Promise((resolve) => (answer = () => resolve(list(body))));

    const starting = initTeams(queryClient, { email: 'ada@example.com', defaultTeamPid: 'tm_a', createPersonalTeam: true });
    await vi.waitFor(() => expect(server.callsTo('GET /teams')).toHaveLength(1));
    await loadTeam(queryClient, 'tm_b');
    answer();
    await starting;

    expect(state().currentTeamPublicId).toBe('tm_b');
    expect(state().settings).toEqual({ currency: 'GBP' });
  });

  it('falls back to the first team when the default is not among them', async () => {
    serverWith([aTeam('tm_a'), aTeam('tm_b')]);
    await initTeams(queryClient, { email: 'ada@example.com', defaultTeamPid: 'tm_gone', createPersonalTeam: true });
    expect(state().currentTeamPublicId).toBe('tm_a');
    expect(state().settings).toEqual({ currency: 'EUR' });
    expect(state().memberSettings).toEqual({ view: 'grid' });
    expect(chooseCurrentTeam([], 'x')).toBeUndefined();
  });

  it('logs a failure as a warning, shows nothing, and ends loading', async () => {
    fakeApi({ 'GET /teams': () => apiError(500, 'internal', 'Something went wrong.') });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const error = vi.spyOn(console, 'error');
    await initTeams(queryClient, { email: 'ada@example.com', defaultTeamPid: null, createPersonalTeam: true });
    expect(warn).toHaveBeenCalledWith('Could not initialise the teams:', expect.objectContaining({ status: 500 }));
    expect(error).not.toHaveBeenCalled();
    expect(state().loading).toBe(false);
    warn.mockRestore();
    error.mockRestore();
  });

  it('does not retry a failed read (the product API never retries)', async () => {
    const server = fakeApi({ 'GET /teams': () => apiError(503, 'unavailable', 'Try later.') });
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    await initTeams(queryClient, { email: 'a@b.c', defaultTeamPid: null, createPersonalTeam: true });
    expect(server.callsTo('GET /teams')).toHaveLength(1);
    vi.mocked(console.warn).mockRestore();
  });
});

// The spec: "On a failed read stale cached data is returned." A brief API failure must not fail
// team start-up or a team switch.
describe('a failed read during start-up or a switch', () => {
  const failing = () => apiError(503, 'unavailable', 'Try later.');

  beforeEach(() => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
  });

  afterEach(() => {
    vi.mocked(console.warn).mockRestore();
  });

  it('starts the teams from the list cached earlier', async () => {
    const server = serverWith([aTeam('tm_a'), aTeam('tm_b')]);
    await initTeams(queryClient, { email: 'ada@example.com', defaultTeamPid: 'tm_a', createPersonalTeam: true });
    await queryClient.invalidateQueries();
    server.handlers['GET /teams'] = failing;
    state().reset();

    await initTeams(queryClient, { email: 'ada@example.com', defaultTeamPid: 'tm_b', createPersonalTeam: true });

    expect(server.callsTo('GET /teams')).toHaveLength(2);
    expect(state().teams.map((team) => team.public_id)).toEqual(['tm_a', 'tm_b']);
    expect(state().currentTeamPublicId).toBe('tm_b');
    expect(state().settings).toEqual({ currency: 'GBP' });
  });

  it("starts from the team store's list after a reload, and makes no personal team", async () => {
    const server = serverWith([]);
    server.handlers['GET /teams'] = failing;
    state().setTeams([aTeam('tm_a'), aTeam('tm_b')]);

    await initTeams(queryClient, { email: 'ada@example.com', defaultTeamPid: 'tm_b', createPersonalTeam: true });

    expect(server.callsTo('POST /teams')).toEqual([]);
    expect(state().currentTeamPublicId).toBe('tm_b');
  });

  it('switches to a team whose details and members were cached, when reading them fails', async () => {
    const server = serverWith([aTeam('tm_a'), aTeam('tm_b')]);
    await initTeams(queryClient, { email: 'ada@example.com', defaultTeamPid: 'tm_a', createPersonalTeam: true });
    await loadTeam(queryClient, 'tm_b');
    await loadTeam(queryClient, 'tm_a');
    await queryClient.invalidateQueries();
    server.handlers['GET /teams/tm_b'] = failing;
    server.handlers['GET /teams/tm_b/members'] = failing;

    await loadTeam(queryClient, 'tm_b');

    expect(server.callsTo('GET /teams/tm_b')).toHaveLength(2);
    expect(state().currentTeam?.name).toBe('Team B, fresh');
    expect(state().members).toEqual([aMember('u1', 'admin')]);
  });

  it('switches to a listed team with nothing cached, without its members', async () => {
    const server = serverWith([aTeam('tm_a'), aTeam('tm_b')]);
    await initTeams(queryClient, { email: 'ada@example.com', defaultTeamPid: 'tm_a', createPersonalTeam: true });
    server.handlers['GET /teams/tm_b'] = failing;
    server.handlers['GET /teams/tm_b/members'] = failing;

    await loadTeam(queryClient, 'tm_b');

    expect(state().currentTeamPublicId).toBe('tm_b');
    expect(state().currentTeam?.name).toBe(aTeam('tm_b').name);
    expect(state().members).toEqual([]);
    expect(state().loading).toBe(false);
  });

  it('fails a switch to a team neither cached nor listed', async () => {
    const server = serverWith([aTeam('tm_a')]);
    await initTeams(queryClient, { email: 'ada@example.com', defaultTeamPid: 'tm_a', createPersonalTeam: true });
    server.handlers['GET /teams/tm_b'] = failing;

    await expect(loadTeam(queryClient, 'tm_b')).rejects.toMatchObject({ status: 503 });
    expect(state().currentTeamPublicId).toBe('tm_a');
  });
});

describe('selecting a team', () => {
  it('loads its details and members, then makes it current, and its settings follow', async () => {
    const server = serverWith([aTeam('tm_a'), aTeam('tm_b')]);
    await initTeams(queryClient, { email: 'ada@example.com', defaultTeamPid: 'tm_a', createPersonalTeam: true });

    await loadTeam(queryClient, 'tm_b');

    expect(state().currentTeam?.name).toBe('Team B, fresh');
    expect(state().members).toEqual([aMember('u1', 'admin')]);
    await vi.waitFor(() => expect(state().settings).toEqual({ currency: 'GBP' }));
    expect(server.callsTo('GET /teams/tm_b/members/settings')).toHaveLength(1);
  });

  it('clears the settings when no team is current any more', async () => {
    serverWith([aTeam('tm_a')]);
    await initTeams(queryClient, { email: 'ada@example.com', defaultTeamPid: 'tm_a', createPersonalTeam: true });
    expect(state().settings).toEqual({ currency: 'EUR' });

    state().removeTeam('tm_a');
    expect(state().settings).toEqual({});
    expect(state().memberSettings).toEqual({});
  });
});

describe('the store takes every answer the team reads fetch, with nothing listening to the cache', () => {
  it('takes the team list from a query, without a subscription to the cache or a key compared', async () => {
    serverWith([aTeam('tm_a'), aTeam('tm_b')]);
    await queryClient.query(teamsQueryOptions());
    expect(state().teams).toEqual([aTeam('tm_a'), aTeam('tm_b')]);
    expect(queryClient.getQueryCache().hasListeners()).toBe(false);
  });

  it('takes a refetched team list, and drops a current team no longer in it', async () => {
    const teams = [aTeam('tm_a'), aTeam('tm_b')];
    serverWith(teams);
    await initTeams(queryClient, { email: 'ada@example.com', defaultTeamPid: 'tm_b', createPersonalTeam: true });

    teams.pop();
    await queryClient.refetchQueries({ queryKey: ['teams', 'list'] });
    expect(state().teams).toEqual([aTeam('tm_a')]);
    expect(state().currentTeamPublicId).toBe('');
  });

  it("takes the current team's members when a write refreshes them on a screen that shows them", async () => {
    const server = serverWith([aTeam('tm_a'), aTeam('tm_b')]);
    await initTeams(queryClient, { email: 'ada@example.com', defaultTeamPid: 'tm_b', createPersonalTeam: true });
    await loadTeam(queryClient, 'tm_b');
    // The team page's member list.
    const shown = new QueryObserver(queryClient, membersQueryOptions('tm_b'));
    const stop = shown.subscribe(() => {});
    server.handlers['GET /teams/tm_b/members'] = () => Response.json({ members: [aMember('u1', 'admin'), aMember('u2', 'viewer')] });

    await refresh(queryClient, membersQueryOptions('tm_b').queryKey);

    expect(state().members).toEqual([aMember('u1', 'admin'), aMember('u2', 'viewer')]);
    stop();
  });

  it("keeps another team's members out: the store holds the current team's", async () => {
    serverWith([aTeam('tm_a'), aTeam('tm_b')]);
    await initTeams(queryClient, { email: 'ada@example.com', defaultTeamPid: 'tm_a', createPersonalTeam: true });
    await queryClient.query(membersQueryOptions('tm_b'));
    expect(state().members).toEqual([]);
  });

  it('takes what a write answers: a renamed team and saved settings, with no refetch', async () => {
    const server = serverWith([aTeam('tm_a'), aTeam('tm_b')]);
    await initTeams(queryClient, { email: 'ada@example.com', defaultTeamPid: 'tm_a', createPersonalTeam: true });
    const calls = server.calls.length;

    putTeam(queryClient, aTeam('tm_a', 'owner', 'Renamed'));
    putSettings(queryClient, 'team', 'tm_a', { currency: 'CHF' });

    expect(state().currentTeam?.name).toBe('Renamed');
    expect(state().teams.map((team) => team.name)).toEqual(['Renamed', 'Team tm_b']);
    expect(state().settings).toEqual({ currency: 'CHF' });
    expect(server.calls).toHaveLength(calls);
  });
});
