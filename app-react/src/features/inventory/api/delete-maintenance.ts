// DELETE /api/v2/teams/{id}/machines/{machineId}/maintenance/{entryId}: removes a log entry
// made by mistake.
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, teamPath } from '@/lib/api-client';

import { machineQueryOptions } from './get-machine';
import { machinesQueryOptions } from './get-machines';

export async function deleteMaintenance({ teamId, machineId, entryId }: { teamId: string; machineId: string; entryId: string }) {
  const path = teamPath(teamId, `machines/${encodeURIComponent(machineId)}/maintenance/${encodeURIComponent(entryId)}`);
  await api<undefined>(path, { method: 'DELETE' });
}

export function useDeleteMaintenance(teamId: string, machineId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (entryId: string) => deleteMaintenance({ teamId, machineId, entryId }),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: machineQueryOptions(teamId, machineId).queryKey }),
        queryClient.invalidateQueries({ queryKey: machinesQueryOptions(teamId).queryKey }),
      ]);
    },
  });
}
