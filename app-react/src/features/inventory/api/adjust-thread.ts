// POST /api/v2/teams/{id}/threads/{threadId}/adjust {delta}: a relative change of quantity, so
// two people tapping at once both count, and taps made offline merge with what teammates did
// meanwhile. The lists show it at once and put it back on error. A kept write
// (docs/behaviour.md, "Offline"): made without a connection, it waits and is sent when the
// connection returns, also after a reload.
import { type QueryClient, mutationOptions, useMutation, useQueryClient } from '@tanstack/react-query';

import { api, teamPath } from '@/lib/api-client';
import { KEPT_WRITE, type KeptContext, type KeptWrite, isOffline, keyHeaders, refuse, useWaitingWrites } from '@/lib/offline/writes';

import type { ThreadPage, ThreadView } from '../types';
import { threadsKey } from './cache';

export interface Adjust extends KeptWrite {
  teamId: string;
  threadId: string;
  delta: number;
  /** How the person knows the thread ("1800 Red"), for a message if the server refuses. */
  label: string;
}

export async function adjustThread(tap: Adjust) {
  const { teamId, threadId, delta } = tap;
  const path = teamPath(teamId, `threads/${encodeURIComponent(threadId)}/adjust`);
  return (await api<{ thread: ThreadView }>(path, { method: 'POST', body: { delta }, headers: keyHeaders(tap) })).thread;
}

/** `page` with `threadId`'s entry changed by `change`. */
export function withThread(page: ThreadPage | undefined, threadId: string, change: (thread: ThreadView) => ThreadView) {
  if (!page) return page;
  return { ...page, threads: page.threads.map((thread) => (thread.id === threadId ? change(thread) : thread)) };
}

/** Hundredths, as the server counts: 0.1 + 0.2 is 0.3 here too. */
const add = (a: number, b: number) => Math.round((a + b) * 100) / 100;

const adjustKey = ['inventory', 'adjust'] as const;

interface AdjustContext extends KeptContext {
  before: [readonly unknown[], ThreadPage | undefined][];
}

/**
 * What this write does, wherever it was made: the hook's options, and the data cache's defaults for
 * its key, which a write restored after a reload (its page gone) is sent with.
 */
function adjustOptions(queryClient: QueryClient) {
  const lists = (teamId: string) => ({ queryKey: [...threadsKey(teamId), 'list'] });
  return mutationOptions<ThreadView, Error, Adjust, AdjustContext>({
    mutationKey: adjustKey,
    ...KEPT_WRITE,
    mutationFn: adjustThread,
    onMutate: async ({ teamId, threadId, delta }) => {
      const offline = isOffline();
      // Offline, nothing is fetching; online, a list arriving now would undo the change shown.
      if (!offline) await queryClient.cancelQueries(lists(teamId));
      const before = queryClient.getQueriesData<ThreadPage>(lists(teamId));
      queryClient.setQueriesData<ThreadPage>(lists(teamId), (page) =>
        withThread(page, threadId, (thread) => ({ ...thread, quantity: add(thread.quantity, delta) })),
      );
      return { before, offline };
    },
    onError: (error, { label, delta }, context) => {
      if (context?.offline) {
        // The lists are read again below; the tap is shown to the person, not silently undone.
        refuse({ title: `${delta > 0 ? '+' : ''}${delta} on ${label}`, reason: error.message });
        return;
      }
      for (const [key, page] of context?.before ?? []) queryClient.setQueryData(key, page);
    },
    onSuccess: (thread, { teamId }) => {
      // Other people's taps meanwhile are in the server's answer.
      queryClient.setQueriesData<ThreadPage>(lists(teamId), (page) => withThread(page, thread.id, () => thread));
    },
    onSettled: (_thread, _error, { teamId }) => queryClient.invalidateQueries({ queryKey: threadsKey(teamId) }),
  });
}

export function registerAdjustThread(queryClient: QueryClient): void {
  queryClient.setMutationDefaults(adjustKey, adjustOptions(queryClient));
}

export function useAdjustThread() {
  return useMutation(adjustOptions(useQueryClient()));
}

/** The threads with taps waiting for the connection. */
export function useWaitingTaps(): Set<string> {
  return new Set(useWaitingWrites<Adjust>(adjustKey).map((tap) => tap.threadId));
}
