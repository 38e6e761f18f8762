// GET /api/v2/teams: the teams the signed-in person belongs to.
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, productQuery } from '@/lib/api-client';

import { teamStore } from '../store';
import type { Team } from '../types';
import { staleTimes } from './cache';

export async function fetchTeams(signal?: AbortSignal): Promise<Team[]> {
  return (await api<{ teams: Team[] }>('/teams', signal ? { signal } : {})).teams;
}

export function teamsQueryOptions() {
  return queryOptions({
    queryKey: ['teams', 'list'],
    // Every fetch, a refetch after a write included, gives the team store (the header's
    // switcher) the list; an answer served from the cache was given it when it was fetched.
    queryFn: async ({ signal }) => {
      const teams = await fetchTeams(signal);
      teamStore.getState().setTeams(teams);
      return teams;
    },
    ...productQuery,
    staleTime: staleTimes.teams,
  });
}

export function useTeams() {
  return useQuery(teamsQueryOptions());
}
