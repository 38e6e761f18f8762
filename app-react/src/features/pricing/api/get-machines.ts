// GET /api/v2/teams/{team}/machines: the team's machines, for the machine-time estimate, with
// the fields the calculator uses.
//
// The key starts like the inventory's machine reads (['inventory', team, 'machines']), so a
// change in the inventory marks this stale too without either feature importing the other.
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, productQuery, teamPath } from '@/lib/api-client';
import type { components } from '@/lib/api-schema';

export type PricingMachine = Pick<components['schemas']['MachineView'], 'id' | 'name' | 'heads' | 'typical_spm' | 'max_spm' | 'status'>;

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
