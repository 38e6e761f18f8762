// POST /api/v2/teams/{id}/machines/{machineId}/maintenance: logs a maintenance done; the
// machine's due list moves with it. A kept write (docs/behaviour.md, "Offline"): an entry logged
// offline is shown as waiting in the log and sent when the connection returns.
import { type QueryClient, mutationOptions, useMutation, useQueryClient } from '@tanstack/react-query';

import { api, teamPath } from '@/lib/api-client';
import { KEPT_WRITE, type KeptContext, type KeptWrite, isOffline, keyHeaders, refuse, useWaitingWrites } from '@/lib/offline/writes';

import { type LogEntry, type LogInput, kindLabels } from '../types';
import { machineQueryOptions } from './get-machine';
import { machinesQueryOptions } from './get-machines';

export interface AddMaintenance extends KeptWrite {
  teamId: string;
  machineId: string;
  entry: LogInput;
  /** The machine's name, for a message if the server refuses. */
  machineName: string;
}

export async function addMaintenance(write: AddMaintenance) {
  const { teamId, machineId, entry } = write;
  const path = teamPath(teamId, `machines/${encodeURIComponent(machineId)}/maintenance`);
  return (await api<{ entry: LogEntry }>(path, { method: 'POST', body: entry, headers: keyHeaders(write) })).entry;
}

const addMaintenanceKey = ['inventory', 'add-maintenance'] as const;

/**
 * What this write does, wherever it was made: the hook's options, and the data cache's defaults for
 * its key, which a write restored after a reload (its page gone) is sent with.
 */
function addMaintenanceOptions(queryClient: QueryClient) {
  return mutationOptions<LogEntry, Error, AddMaintenance, KeptContext>({
    mutationKey: addMaintenanceKey,
    ...KEPT_WRITE,
    mutationFn: addMaintenance,
    onMutate: () => ({ offline: isOffline() }),
    onError: (error, { entry, machineName }, context) => {
      if (context?.offline) {
        refuse({ title: `${kindLabels[entry.kind]} of ${machineName} on ${entry.performed_on}`, reason: error.message });
      }
    },
    onSuccess: async (_entry, { teamId, machineId }) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: machineQueryOptions(teamId, machineId).queryKey }),
        queryClient.invalidateQueries({ queryKey: machinesQueryOptions(teamId).queryKey }),
      ]);
    },
  });
}

export function registerAddMaintenance(queryClient: QueryClient): void {
  queryClient.setMutationDefaults(addMaintenanceKey, addMaintenanceOptions(queryClient));
}

export function useAddMaintenance() {
  return useMutation(addMaintenanceOptions(useQueryClient()));
}

/** The entries of `machineId` logged offline, waiting for the connection. */
export function useWaitingMaintenance(machineId: string): LogInput[] {
  return useWaitingWrites<AddMaintenance>(addMaintenanceKey)
    .filter((write) => write.machineId === machineId)
    .map((write) => write.entry);
}
