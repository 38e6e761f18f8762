// PUT /api/v2/teams/{id}/machines/{machineId}: a full edit made from `version` (409
// edit_conflict when someone changed the machine meanwhile).
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, teamPath } from '@/lib/api-client';

import type { Machine, MachineDraft } from '../types';
import { machineQueryOptions } from './get-machine';
import { machinesQueryOptions } from './get-machines';

export async function updateMachine({
  teamId,
  machineId,
  draft,
}: {
  teamId: string;
  machineId: string;
  draft: MachineDraft & { version: number };
}): Promise<Machine> {
  const path = teamPath(teamId, `machines/${encodeURIComponent(machineId)}`);
  return (await api<{ machine: Machine }>(path, { method: 'PUT', body: draft })).machine;
}

export function useUpdateMachine(teamId: string, machineId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (draft: MachineDraft & { version: number }) => updateMachine({ teamId, machineId, draft }),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: machineQueryOptions(teamId, machineId).queryKey }),
        queryClient.invalidateQueries({ queryKey: machinesQueryOptions(teamId).queryKey }),
      ]);
    },
  });
}
