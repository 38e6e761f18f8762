// GET /api/v2/teams/{publicId}: one team, with the caller's role in it.
import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';

import { api, productQuery, teamPath } from '@/lib/api-client';

import { teamStore } from '../store';
import type { Team } from '../types';
import { staleTimes } from './cache';

export async function fetchTeam(publicId: string, signal?: AbortSignal): Promise<Team> {
  return (await api<{ team: Team }>(teamPath(publicId), signal ? { signal } : {})).team;
}

export function teamQueryOptions(publicId: string) {
  return queryOptions({
    queryKey: ['teams', 'detail', publicId],
    // The team store takes every fetched copy: a new name or role shows in the header too.
    queryFn: async ({ signal }) => {
      const team = await fetchTeam(publicId, signal);
      teamStore.getState().updateTeam(team);
      return team;
    },
    ...productQuery,
    staleTime: staleTimes.team,
  });
}

/** A team a write answered (renamed, joined): cached as its details, and into the team store. */
export function putTeam(queryClient: QueryClient, team: Team): void {
  queryClient.setQueryData(teamQueryOptions(team.public_id).queryKey, team);
  teamStore.getState().updateTeam(team);
}

export function useTeam(publicId: string) {
  return useQuery({ ...teamQueryOptions(publicId), enabled: publicId !== '' });
}
