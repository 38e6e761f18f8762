// POST /api/v2/teams/{id}/machines: adds a machine (members and above).
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, teamPath } from '@/lib/api-client';

import type { Machine, MachineDraft } from '../types';
import { machinesQueryOptions } from './get-machines';

export async function createMachine({ teamId, draft }: { teamId: string; draft: MachineDraft }): Promise<Machine> {
  return (await api<{ machine: Machine }>(teamPath(teamId, 'machines'), { method: 'POST', body: draft })).machine;
}

export function useCreateMachine(teamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (draft: MachineDraft) => createMachine({ teamId, draft }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: machinesQueryOptions(teamId).queryKey }),
  });
}
