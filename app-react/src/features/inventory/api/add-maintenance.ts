// POST /api/v2/teams/{id}/machines/{machineId}/maintenance: logs a maintenance done; the
// machine's due list moves with it.
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, teamPath } from '@/lib/api-client';

import type { LogEntry, LogInput } from '../types';
import { machineQueryOptions } from './get-machine';
import { machinesQueryOptions } from './get-machines';

export async function addMaintenance({ teamId, machineId, entry }: { teamId: string; machineId: string; entry: LogInput }) {
  const path = teamPath(teamId, `machines/${encodeURIComponent(machineId)}/maintenance`);
  return (await api<{ entry: LogEntry }>(path, { method: 'POST', body: entry })).entry;
}

export function useAddMaintenance(teamId: string, machineId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (entry: LogInput) => addMaintenance({ teamId, machineId, entry }),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: machineQueryOptions(teamId, machineId).queryKey }),
        queryClient.invalidateQueries({ queryKey: machinesQueryOptions(teamId).queryKey }),
      ]);
    },
  });
}
