// GET /api/v2/teams/{id}/machines: the team's machines, each with its next due maintenance.
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, productQuery, teamPath } from '@/lib/api-client';

import type { Machine } from '../types';
import { machinesKey } from './cache';

export async function fetchMachines(teamId: string, signal?: AbortSignal): Promise<Machine[]> {
  return (await api<{ machines: Machine[] }>(teamPath(teamId, 'machines'), signal ? { signal } : {})).machines;
}

export function machinesQueryOptions(teamId: string) {
  return queryOptions({
    queryKey: [...machinesKey(teamId), 'list'],
    queryFn: ({ signal }) => fetchMachines(teamId, signal),
    ...productQuery,
  });
}

export function useMachines(teamId: string) {
  return useQuery({ ...machinesQueryOptions(teamId), enabled: teamId !== '' });
}
