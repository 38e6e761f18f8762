// GET /api/v2/teams/{id}/machines/{machineId}: one machine with its maintenance log and due list.
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, productQuery, teamPath } from '@/lib/api-client';

import type { Machine } from '../types';
import { machinesKey } from './cache';

export async function fetchMachine(teamId: string, machineId: string, signal?: AbortSignal): Promise<Machine> {
  const path = teamPath(teamId, `machines/${encodeURIComponent(machineId)}`);
  return (await api<{ machine: Machine }>(path, signal ? { signal } : {})).machine;
}

export function machineQueryOptions(teamId: string, machineId: string) {
  return queryOptions({
    queryKey: [...machinesKey(teamId), 'one', machineId],
    queryFn: ({ signal }) => fetchMachine(teamId, machineId, signal),
    ...productQuery,
  });
}

export function useMachine(teamId: string, machineId: string) {
  return useQuery({ ...machineQueryOptions(teamId, machineId), enabled: teamId !== '' && machineId !== '' });
}
