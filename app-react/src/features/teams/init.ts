// Team initialisation and team selection (docs/behaviour.md, "Team start-up and selection").
import type { QueryClient } from '@tanstack/react-query';

import { createTeam } from './api/create-team';
import { teamQueryOptions } from './api/get-team';
import { membersQueryOptions } from './api/get-members';
import { teamsQueryOptions } from './api/get-teams';
import { loadCurrentTeamSettings } from './connect';
import { teamStore } from './store';
import type { Team } from './types';

export interface TeamInitInput {
  /** The signed-in person's e-mail; without one (no user) no team is created. */
  email: string | null | undefined;
  /** The profile's default team. */
  defaultTeamPid: string | null | undefined;
  /** False where a missing team must not be made up (see app/teams.ts). */
  createPersonalTeam: boolean;
}

/** The name of the team made for someone who has none. */
export function personalTeamName(email: string): string {
  return `${email}'s Team`;
}

/** The team the profile names as the default, else the first. */
export function chooseCurrentTeam(teams: readonly Team[], defaultTeamPid: string | null | undefined): Team | undefined {
  return teams.find((team) => team.public_id === defaultTeamPid) ?? teams[0];
}

// Auth events come in bursts (the initial session, a token refresh, another tab): one
// initialisation at a time, so two of them cannot both find no team and both create one.
let running: Promise<void> | undefined;

/**
 * Fetches the teams; with none and a user, creates `{email}'s Team` and fetches again; then makes
 * the default (or first) team current and loads its settings. A failure is logged, not shown.
 */
export function initTeams(queryClient: QueryClient, input: TeamInitInput): Promise<void> {
  running ??= runInit(queryClient, input).finally(() => {
    running = undefined;
  });
  return running;
}

async function runInit(queryClient: QueryClient, { email, defaultTeamPid, createPersonalTeam }: TeamInitInput) {
  const store = teamStore.getState();
  store.setLoading(true);
  try {
    let teams = await queryClient.fetchQuery(teamsQueryOptions());
    if (teams.length === 0 && email && createPersonalTeam) {
      await createTeam(personalTeamName(email));
      teams = await queryClient.fetchQuery({ ...teamsQueryOptions(), staleTime: 0 });
    }
    store.setTeams(teams);
    const current = chooseCurrentTeam(teams, defaultTeamPid)?.public_id ?? '';
    store.setCurrentTeam(current);
    await loadCurrentTeamSettings(queryClient, current);
  } catch (error) {
    console.warn('Could not initialise the teams:', error);
  } finally {
    store.setLoading(false);
  }
}

/**
 * Selecting a team, first half: loads its details and members and makes it current; its settings
 * follow (./connect.ts). Saving it as the default is the caller's second half (app/teams.ts), since
 * the default lives in the profile.
 */
export async function loadTeam(queryClient: QueryClient, publicId: string): Promise<void> {
  const store = teamStore.getState();
  store.setLoading(true);
  try {
    const [team, members] = await Promise.all([
      queryClient.fetchQuery(teamQueryOptions(publicId)),
      queryClient.fetchQuery(membersQueryOptions(publicId)),
    ]);
    store.updateTeam(team);
    store.setCurrentTeam(publicId);
    store.setMembers(members);
  } finally {
    store.setLoading(false);
  }
}
