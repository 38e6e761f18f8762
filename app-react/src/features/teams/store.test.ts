import { clearLocalTeamData } from '@/lib/team-data';

import { TEAM_STORE_KEY, emptyTeamState, teamStore } from './store';
import { aMember, aTeam, anInvite } from './test-data';

const state = () => teamStore.getState();

beforeEach(() => {
  state().reset();
  localStorage.clear();
});

describe('the team store', () => {
  it('holds the fields docs/behaviour.md lists, empty at first', () => {
    const fields = [
      'teams',
      'currentTeam',
      'currentTeamPublicId',
      'members',
      'invites',
      'myInvites',
      'loading',
      'settings',
      'memberSettings',
    ];
    expect(Object.keys(emptyTeamState).sort()).toEqual(fields.sort());
    expect(state()).toMatchObject(emptyTeamState);
  });

  it('makes a listed team current, and keeps it current across a new list with its new name', () => {
    state().setTeams([aTeam('a'), aTeam('b')]);
    state().setCurrentTeam('b');
    expect(state().currentTeam?.name).toBe('Team b');

    state().setTeams([aTeam('a'), aTeam('b', 'owner', 'Renamed')]);
    expect(state().currentTeamPublicId).toBe('b');
    expect(state().currentTeam?.name).toBe('Renamed');
  });

  it("drops the old team's members, invites and settings when another becomes current", () => {
    state().setTeams([aTeam('a'), aTeam('b')]);
    state().setCurrentTeam('a');
    state().setMembers('a', [aMember('u1', 'owner')]);
    state().setInvites('a', [anInvite('i1')]);
    state().setSettings('a', { currency: 'EUR' });
    state().setMemberSettings('a', { x: 1 });
    expect(state()).toMatchObject({ members: [aMember('u1', 'owner')], invites: [anInvite('i1')], settings: { currency: 'EUR' } });

    state().setCurrentTeam('b');
    expect(state()).toMatchObject({ members: [], invites: [], settings: {}, memberSettings: {} });
  });

  it("takes a team's members, invites and settings only while that team is current", () => {
    state().setTeams([aTeam('a'), aTeam('b')]);
    state().setCurrentTeam('b');
    // Answers about team a, arriving after the switch to b.
    state().setMembers('a', [aMember('u1', 'owner')]);
    state().setInvites('a', [anInvite('i1')]);
    state().setSettings('a', { currency: 'EUR' });
    state().setMemberSettings('a', { x: 1 });
    expect(state()).toMatchObject({ members: [], invites: [], settings: {}, memberSettings: {} });

    state().setCurrentTeam('');
    state().setSettings('', { currency: 'EUR' });
    expect(state().settings).toEqual({});
  });

  it('clears the current team when it is removed, and only then', () => {
    state().setTeams([aTeam('a'), aTeam('b')]);
    state().setCurrentTeam('a');
    state().removeTeam('b');
    expect(state().currentTeamPublicId).toBe('a');

    state().removeTeam('a');
    expect(state().currentTeamPublicId).toBe('');
    expect(state().currentTeam).toBeNull();
    expect(state().teams).toEqual([]);
  });

  it('adds or replaces one team from its details', () => {
    state().setTeams([aTeam('a')]);
    state().updateTeam(aTeam('a', 'admin', 'New name'));
    state().updateTeam(aTeam('c'));
    expect(state().teams.map((team) => [team.public_id, team.name])).toEqual([
      ['a', 'New name'],
      ['c', 'Team c'],
    ]);
  });

  it('is kept in localStorage under a key clearLocalTeamData removes, without the loading flag', () => {
    state().setTeams([aTeam('a')]);
    state().setCurrentTeam('a');
    state().setLoading(true);
    expect(TEAM_STORE_KEY.startsWith('bobbin:team')).toBe(true);
    const saved = JSON.parse(localStorage.getItem(TEAM_STORE_KEY) ?? '{}') as { state: Record<string, unknown> };
    expect(saved.state).toMatchObject({ currentTeamPublicId: 'a', teams: [aTeam('a')] });
    expect(saved.state).not.toHaveProperty('loading');
  });

  it('is reset, in memory and in storage, by the logout', () => {
    state().setTeams([aTeam('a')]);
    state().setCurrentTeam('a');
    state().setMyInvites([anInvite('i1')]);

    clearLocalTeamData();

    expect(state()).toMatchObject({ teams: [], currentTeamPublicId: '', myInvites: [] });
    expect(localStorage.getItem(TEAM_STORE_KEY)).toBeNull();
  });
});
