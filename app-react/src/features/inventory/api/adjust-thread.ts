// POST /api/v2/teams/{id}/threads/{threadId}/adjust {delta}: a relative change of quantity, so
// two people tapping at once both count. The lists show it at once and put it back on error.
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, teamPath } from '@/lib/api-client';

import type { ThreadPage, ThreadView } from '../types';
import { threadsKey } from './cache';

export async function adjustThread({ teamId, threadId, delta }: { teamId: string; threadId: string; delta: number }) {
  const path = teamPath(teamId, `threads/${encodeURIComponent(threadId)}/adjust`);
  return (await api<{ thread: ThreadView }>(path, { method: 'POST', body: { delta } })).thread;
}

/** `page` with `threadId`'s entry changed by `change`. */
export function withThread(page: ThreadPage | undefined, threadId: string, change: (thread: ThreadView) => ThreadView) {
  if (!page) return page;
  return { ...page, threads: page.threads.map((thread) => (thread.id === threadId ? change(thread) : thread)) };
}

/** Hundredths, as the server counts: 0.1 + 0.2 is 0.3 here too. */
const add = (a: number, b: number) => Math.round((a + b) * 100) / 100;

export function useAdjustThread(teamId: string) {
  const queryClient = useQueryClient();
  const lists = { queryKey: [...threadsKey(teamId), 'list'] };
  return useMutation({
    mutationFn: ({ threadId, delta }: { threadId: string; delta: number }) => adjustThread({ teamId, threadId, delta }),
    onMutate: async ({ threadId, delta }) => {
      await queryClient.cancelQueries(lists);
      const before = queryClient.getQueriesData<ThreadPage>(lists);
      queryClient.setQueriesData<ThreadPage>(lists, (page) =>
        withThread(page, threadId, (thread) => ({ ...thread, quantity: add(thread.quantity, delta) })),
      );
      return { before };
    },
    onError: (_error, _vars, context) => {
      for (const [key, page] of context?.before ?? []) queryClient.setQueryData(key, page);
    },
    onSuccess: (thread) => {
      // Other people's taps meanwhile are in the server's answer.
      queryClient.setQueriesData<ThreadPage>(lists, (page) => withThread(page, thread.id, () => thread));
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: threadsKey(teamId) }),
  });
}
