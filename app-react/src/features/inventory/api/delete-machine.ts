// DELETE /api/v2/teams/{id}/machines/{machineId}: removes a machine and its log.
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, teamPath } from '@/lib/api-client';

import { machineQueryOptions } from './get-machine';
import { machinesQueryOptions } from './get-machines';

export async function deleteMachine({ teamId, machineId }: { teamId: string; machineId: string }): Promise<void> {
  await api<undefined>(teamPath(teamId, `machines/${encodeURIComponent(machineId)}`), { method: 'DELETE' });
}

export function useDeleteMachine(teamId: string, machineId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteMachine({ teamId, machineId }),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: machineQueryOptions(teamId, machineId).queryKey });
      await queryClient.invalidateQueries({ queryKey: machinesQueryOptions(teamId).queryKey });
    },
  });
}
