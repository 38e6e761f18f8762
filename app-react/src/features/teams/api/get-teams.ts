// GET /api/v2/teams: the teams the signed-in person belongs to.
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import type { Team } from '../types';
import { productQuery, staleTimes } from './cache';

export async function fetchTeams(signal?: AbortSignal): Promise<Team[]> {
  return (await api<{ teams: Team[] }>('/teams', signal ? { signal } : {})).teams;
}

export function teamsQueryOptions() {
  return queryOptions({
    queryKey: ['teams', 'list'],
    queryFn: ({ signal }) => fetchTeams(signal),
    staleTime: staleTimes.teams,
    ...productQuery,
  });
}

export function useTeams() {
  return useQuery(teamsQueryOptions());
}
