// Team initialisation and team selection (docs/behaviour.md, "Team start-up and selection").
import type { QueryClient } from '@tanstack/react-query';

import { queryOrStale } from '@/lib/query-client';

import { createTeam } from './api/create-team';
import { teamQueryOptions } from './api/get-team';
import { membersQueryOptions } from './api/get-members';
import { settingsQueryOptions } from './api/get-settings';
import { teamsQueryOptions } from './api/get-teams';
import { teamStore } from './store';
import type { Team } from './types';

export interface TeamInitInput {
  /** The signed-in person's e-mail; without one (no user) no team is created. */
  email: string | null | undefined;
  /** Their full name, if they gave one: their first team is named after it. */
  fullName?: string | null | undefined;
  /** The profile's default team. */
  defaultTeamPid: string | null | undefined;
  /** False where a missing team must not be made up (see app/teams.ts). */
  createPersonalTeam: boolean;
}

/** The name of the team made for someone who has none: after their full name when they gave
 * one, else their e-mail (docs/behaviour.md, "Team start-up and selection"). */
export function personalTeamName(email: string, fullName?: string | null): string {
  const name = fullName?.trim();
  return `${name || email}'s Team`;
}

/** The team the profile names as the default, else the first. */
export function chooseCurrentTeam(teams: readonly Team[], defaultTeamPid: string | null | undefined): Team | undefined {
  return teams.find((team) => team.public_id === defaultTeamPid) ?? teams[0];
}

/**
 * A new current team's settings and the person's member settings, into the store
 * (docs/behaviour.md, "The team store"). (A team that stops being current takes its settings with
 * it: see `current` in ./store.ts.) Failures are logged, not shown: the screens that need settings
 * show their own state.
 */
export async function loadCurrentTeamSettings(queryClient: QueryClient, publicId: string): Promise<void> {
  if (!publicId) return;
  try {
    // `query` answers from the cache while it is fresh, without calling the fetcher that
    // would store the answer, so the answers are stored here. The store drops them if the
    // person has switched again meanwhile.
    const [settings, memberSettings] = await Promise.all([
      queryOrStale(queryClient, settingsQueryOptions('team', publicId)),
      queryOrStale(queryClient, settingsQueryOptions('member', publicId)),
    ]);
    const store = teamStore.getState();
    store.setSettings(publicId, settings);
    store.setMemberSettings(publicId, memberSettings);
  } catch (error) {
    console.warn('Could not load the team settings:', error);
  }
}

// Auth events come in bursts (the initial session, a token refresh, another tab): one
// initialisation at a time, so two of them cannot both find no team and both create one.
let running: Promise<void> | undefined;

/**
 * Fetches the teams; with none and a user, creates their personal team and fetches again; then makes
 * the default (or first) team current, unless the person picked a team of the list meanwhile, and
 * loads its settings. A failure is logged, not shown.
 */
export function initTeams(queryClient: QueryClient, input: TeamInitInput): Promise<void> {
  running ??= runInit(queryClient, input).finally(() => {
    running = undefined;
  });
  return running;
}

async function runInit(queryClient: QueryClient, { email, fullName, defaultTeamPid, createPersonalTeam }: TeamInitInput) {
  const store = teamStore.getState();
  // The team current when this began: one the person picks with the switcher meanwhile (the
  // switcher shows the teams kept from the last visit at once, before this has read anything)
  // is theirs, and this does not switch them back to the default.
  const currentAtStart = store.currentTeamPublicId;
  store.setLoading(true);
  try {
    // A failed read uses the list cached earlier, or the team store's (docs/behaviour.md, "Cache
    // lifetimes"); an empty one is no answer: it would make a personal team for someone with teams.
    const kept = store.teams.length > 0 ? store.teams : undefined;
    let teams = await queryOrStale(queryClient, teamsQueryOptions(), kept);
    if (teams.length === 0 && email && createPersonalTeam) {
      await createTeam(personalTeamName(email, fullName));
      // Not the cached list, which is known to be out of date now.
      teams = await queryClient.query({ ...teamsQueryOptions(), staleTime: 0 });
    }
    // Stored here as well as by the fetcher: `query` may have answered from the cache.
    store.setTeams(teams);
    const picked = teamStore.getState().currentTeamPublicId;
    const pickedMeanwhile = picked !== currentAtStart && teams.some((team) => team.public_id === picked);
    const current = pickedMeanwhile ? picked : (chooseCurrentTeam(teams, defaultTeamPid)?.public_id ?? '');
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
 * follow, without holding up the switch. Saving it as the default is the caller's second half
 * (app/teams.ts), since the default lives in the profile.
 *
 * A failed read uses what was cached earlier; with nothing cached, the team as the team list has
 * it, and no members (the team page asks for them itself). Only a team that is neither cached nor
 * listed fails the switch.
 */
export async function loadTeam(queryClient: QueryClient, publicId: string): Promise<void> {
  const store = teamStore.getState();
  store.setLoading(true);
  try {
    const listed = store.teams.find((team) => team.public_id === publicId);
    const [team, members] = await Promise.all([
      queryOrStale(queryClient, teamQueryOptions(publicId)).catch((error: unknown) => {
        if (listed) return listed;
        throw error;
      }),
      queryOrStale(queryClient, membersQueryOptions(publicId)).catch((error: unknown) => {
        console.warn("Could not load the team's members:", error);
        return null;
      }),
    ]);
    store.updateTeam(team);
    store.setCurrentTeam(publicId);
    // After setCurrentTeam: the store keeps the lists of the current team only.
    if (members) store.setMembers(publicId, members);
    void loadCurrentTeamSettings(queryClient, publicId);
  } finally {
    store.setLoading(false);
  }
}
