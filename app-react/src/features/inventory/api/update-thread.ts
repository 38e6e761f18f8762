// PUT /api/v2/teams/{id}/threads/{threadId}: a full edit made from `version` (409 edit_conflict
// when someone changed the entry meanwhile).
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, teamPath } from '@/lib/api-client';

import type { ThreadInput, ThreadView } from '../types';
import { threadsKey } from './cache';
import { threadQueryOptions } from './get-thread';

export async function updateThread({
  teamId,
  threadId,
  input,
}: {
  teamId: string;
  threadId: string;
  input: ThreadInput & { version: number };
}): Promise<ThreadView> {
  const path = teamPath(teamId, `threads/${encodeURIComponent(threadId)}`);
  return (await api<{ thread: ThreadView }>(path, { method: 'PUT', body: input })).thread;
}

export function useUpdateThread(teamId: string, threadId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ThreadInput & { version: number }) => updateThread({ teamId, threadId, input }),
    onSuccess: async (thread) => {
      queryClient.setQueryData(threadQueryOptions(teamId, threadId).queryKey, thread);
      await queryClient.invalidateQueries({ queryKey: threadsKey(teamId) });
    },
  });
}
