// GET /api/v2/teams/{team}/machines: the team's machines, for the machine-time estimate. Only
// the fields the calculator uses are declared.
//
// The key starts like the inventory's machine reads (['inventory', team, 'machines']), so a
// change in the inventory marks this stale too without either feature importing the other.
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, productQuery, teamPath } from '@/lib/api-client';

export interface PricingMachine {
  id: string;
  name: string;
  heads: number;
  typical_spm: number | null;
  max_spm: number | null;
  status: string;
}

export async function fetchMachines(teamId: string, signal?: AbortSignal): Promise<PricingMachine[]> {
  return (await api<{ machines: PricingMachine[] }>(teamPath(teamId, 'machines'), signal ? { signal } : {})).machines;
}

export function machinesQueryOptions(teamId: string) {
  return queryOptions({
    queryKey: ['inventory', teamId, 'machines', 'pricing'],
    queryFn: ({ signal }) => fetchMachines(teamId, signal),
    ...productQuery,
  });
}

export function useMachines(teamId: string) {
  return useQuery({ ...machinesQueryOptions(teamId), enabled: teamId !== '' });
}
