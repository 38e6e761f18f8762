// GET /api/v2/teams/{publicId}: one team, with the caller's role in it.
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import type { Team } from '../types';
import { productQuery, staleTimes } from './cache';

export async function fetchTeam(publicId: string, signal?: AbortSignal): Promise<Team> {
  return (await api<{ team: Team }>(`/teams/${encodeURIComponent(publicId)}`, signal ? { signal } : {})).team;
}

export function teamQueryOptions(publicId: string) {
  return queryOptions({
    queryKey: ['teams', 'detail', publicId],
    queryFn: ({ signal }) => fetchTeam(publicId, signal),
    staleTime: staleTimes.team,
    ...productQuery,
  });
}

export function useTeam(publicId: string) {
  return useQuery({ ...teamQueryOptions(publicId), enabled: publicId !== '' });
}
