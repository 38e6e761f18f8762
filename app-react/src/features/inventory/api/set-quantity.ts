// POST /api/v2/teams/{id}/threads/{threadId}/quantity {quantity, expected}: a count typed into
// the list, set only if the count is still the one the person saw (409 quantity_changed names
// both), so a teammate's change made since is never overwritten.
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, teamPath } from '@/lib/api-client';

import type { ThreadPage, ThreadView } from '../types';
import { withThread } from './adjust-thread';
import { threadsKey } from './cache';

interface SetQuantity {
  threadId: string;
  quantity: number;
  /** The count shown when it was typed. */
  expected: number;
}

export async function setQuantity(teamId: string, { threadId, quantity, expected }: SetQuantity) {
  const path = teamPath(teamId, `threads/${encodeURIComponent(threadId)}/quantity`);
  return (await api<{ thread: ThreadView }>(path, { method: 'POST', body: { quantity, expected } })).thread;
}

export function useSetQuantity(teamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: SetQuantity) => setQuantity(teamId, change),
    onSuccess: (thread) => {
      queryClient.setQueriesData<ThreadPage>({ queryKey: [...threadsKey(teamId), 'list'] }, (page) =>
        withThread(page, thread.id, () => thread),
      );
    },
    // Refused or not, the lists read the count as it is now.
    onSettled: () => queryClient.invalidateQueries({ queryKey: threadsKey(teamId) }),
  });
}
