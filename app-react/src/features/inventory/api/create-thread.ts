// POST /api/v2/teams/{id}/threads: adds one entry (members and above).
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, teamPath } from '@/lib/api-client';

import type { ThreadInput, ThreadView } from '../types';
import { threadsKey } from './cache';

export async function createThread({ teamId, input }: { teamId: string; input: ThreadInput }): Promise<ThreadView> {
  return (await api<{ thread: ThreadView }>(teamPath(teamId, 'threads'), { method: 'POST', body: input })).thread;
}

export function useCreateThread(teamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ThreadInput) => createThread({ teamId, input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: threadsKey(teamId) }),
  });
}
