// The team store (docs/behaviour.md, "The team store"): the teams the person belongs to, the
// current team, and that team's members, invites and settings; plus the person's own pending
// invites and a loading flag. Persisted in localStorage (so a reload paints the team switcher at once) under a key the
// logout's clearLocalTeamData removes. TanStack Query fetches and caches the server data (./api);
// the store keeps the last answer of each, put here by whoever has it: each team read's fetcher
// (./api/get-*.ts), the writes that answer a record (rename, settings), and team initialisation
// and selection (./init.ts).
import { createPersistedStore } from '@/lib/store';
import { TEAM_STORAGE_PREFIX, onTeamDataCleared } from '@/lib/team-data';

import type { Invite, Member, Settings, Team } from './types';

export const TEAM_STORE_KEY = `${TEAM_STORAGE_PREFIX}-store`;

export interface TeamState {
  teams: Team[];
  currentTeam: Team | null;
  /** '' when no team is current. */
  currentTeamPublicId: string;
  /** Of the current team. */
  members: Member[];
  /** The current team's pending invites (admins and owners only). */
  invites: Invite[];
  /** Invites addressed to the signed-in person. */
  myInvites: Invite[];
  /** Team initialisation or a team switch is under way. */
  loading: boolean;
  /** The current team's settings. */
  settings: Settings;
  /** The signed-in person's own settings in the current team. */
  memberSettings: Settings;
}

export interface TeamActions {
  /** The team list; the current team follows its entry (renamed, say), and is cleared if gone. */
  setTeams: (teams: Team[]) => void;
  /** One team's fresh details, wherever it appears. */
  updateTeam: (team: Team) => void;
  /** Makes `publicId` current ('' for none); a different team drops the old one's lists. */
  setCurrentTeam: (publicId: string) => void;
  /** A team deleted or left: gone from the list, and no longer current. */
  removeTeam: (publicId: string) => void;
  /**
   * The lists and settings below are the current team's only: each of these setters names the
   * team its answer is of, and drops it unless that team is current (an answer that arrives
   * after a switch is not the new team's).
   */
  setMembers: (publicId: string, members: Member[]) => void;
  setInvites: (publicId: string, invites: Invite[]) => void;
  setSettings: (publicId: string, settings: Settings) => void;
  setMemberSettings: (publicId: string, settings: Settings) => void;
  setMyInvites: (invites: Invite[]) => void;
  setLoading: (loading: boolean) => void;
  reset: () => void;
}

export const emptyTeamState: TeamState = {
  teams: [],
  currentTeam: null,
  currentTeamPublicId: '',
  members: [],
  invites: [],
  myInvites: [],
  loading: false,
  settings: {},
  memberSettings: {},
};

/** What changing the current team to `publicId` does to the state. */
function current(state: TeamState, publicId: string): Partial<TeamState> {
  const team = state.teams.find((t) => t.public_id === publicId) ?? null;
  const id = team?.public_id ?? '';
  if (id === state.currentTeamPublicId) return { currentTeam: team };
  // Another team's members, invites and settings must not show under this one's name.
  return { currentTeam: team, currentTeamPublicId: id, members: [], invites: [], settings: {}, memberSettings: {} };
}

/** `change` when team `publicId` is current, else the state as it is (nothing is written). */
function ofCurrent(publicId: string, change: Partial<TeamState>) {
  return (state: TeamState): Partial<TeamState> => (publicId !== '' && publicId === state.currentTeamPublicId ? change : state);
}

export const teamStore = createPersistedStore<TeamState & TeamActions>(
  (set) => ({
    ...emptyTeamState,
    setTeams: (teams) => set((state) => ({ teams, ...current({ ...state, teams }, state.currentTeamPublicId) })),
    updateTeam: (team) =>
      set((state) => {
        const teams = state.teams.some((t) => t.public_id === team.public_id)
          ? state.teams.map((t) => (t.public_id === team.public_id ? team : t))
          : [...state.teams, team];
        return { teams, ...current({ ...state, teams }, state.currentTeamPublicId) };
      }),
    setCurrentTeam: (publicId) => set((state) => current(state, publicId)),
    removeTeam: (publicId) =>
      set((state) => {
        const teams = state.teams.filter((t) => t.public_id !== publicId);
        const next = state.currentTeamPublicId === publicId ? '' : state.currentTeamPublicId;
        return { teams, ...current({ ...state, teams }, next) };
      }),
    setMembers: (publicId, members) => set(ofCurrent(publicId, { members })),
    setInvites: (publicId, invites) => set(ofCurrent(publicId, { invites })),
    setSettings: (publicId, settings) => set(ofCurrent(publicId, { settings })),
    setMemberSettings: (publicId, memberSettings) => set(ofCurrent(publicId, { memberSettings })),
    setMyInvites: (myInvites) => set({ myInvites }),
    setLoading: (loading) => set({ loading }),
    reset: () => set(emptyTeamState),
  }),
  {
    name: TEAM_STORE_KEY,
    // Everything but the loading flag, which belongs to this page load.
    persisted: ({ teams, currentTeam, currentTeamPublicId, members, invites, myInvites, settings, memberSettings }) => ({
      teams,
      currentTeam,
      currentTeamPublicId,
      members,
      invites,
      myInvites,
      settings,
      memberSettings,
    }),
  },
);

// Logout resets the store (docs/behaviour.md, "Logout").
onTeamDataCleared(() => teamStore.getState().reset());

/** A React hook over the team store. */
export const useTeamStore = teamStore.use;
