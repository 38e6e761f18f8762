// POST /api/v2/teams/{id}/threads/{threadId}/quantity {quantity, expected}: a count typed into
// the list, set only if the count is still the one the person saw (409 quantity_changed names
// both), so a teammate's change made since is never overwritten. A kept write (docs/behaviour.md,
// "Offline"): one typed offline is sent when the connection returns, and if the count changed
// meanwhile the refusal is shown with both counts (lib/offline/writes.ts), never dropped.
import { type QueryClient, mutationOptions, useMutation, useQueryClient } from '@tanstack/react-query';

import { api, teamPath } from '@/lib/api-client';
import {
  KEPT_WRITE,
  type KeptContext,
  type KeptWrite,
  isOffline,
  keyHeaders,
  newWriteKey,
  refuse,
  useWaitingWrites,
} from '@/lib/offline/writes';

import type { ThreadPage, ThreadView } from '../types';
import { withThread } from './adjust-thread';
import { threadsKey } from './cache';
import { fetchThread } from './get-thread';

export interface SetQuantity extends KeptWrite {
  teamId: string;
  threadId: string;
  quantity: number;
  /** The count shown when it was typed. */
  expected: number;
  /** How the person knows the thread ("1800 Red"), for a message if the server refuses. */
  label: string;
}

export async function setQuantity(count: SetQuantity) {
  const { teamId, threadId, quantity, expected } = count;
  const path = teamPath(teamId, `threads/${encodeURIComponent(threadId)}/quantity`);
  const body = { quantity, expected };
  return (await api<{ thread: ThreadView }>(path, { method: 'POST', body, headers: keyHeaders(count) })).thread;
}

const setQuantityKey = ['inventory', 'set-quantity'] as const;

/**
 * What this write does, wherever it was made: the hook's options, and the data cache's defaults for
 * its key, which a write restored after a reload (its page gone) is sent with.
 */
function setQuantityOptions(queryClient: QueryClient) {
  const lists = (teamId: string) => ({ queryKey: [...threadsKey(teamId), 'list'] });
  return mutationOptions<ThreadView, Error, SetQuantity, KeptContext>({
    mutationKey: setQuantityKey,
    ...KEPT_WRITE,
    mutationFn: setQuantity,
    onMutate: ({ teamId, threadId, quantity }) => {
      const offline = isOffline();
      // Offline, the list shows the count typed until it is sent.
      if (offline)
        queryClient.setQueriesData<ThreadPage>(lists(teamId), (page) => withThread(page, threadId, (thread) => ({ ...thread, quantity })));
      return { offline };
    },
    onError: (error, { teamId, threadId, quantity, label }, context) => {
      if (context?.offline)
        refuse({ title: `Count of ${label} set to ${quantity}`, reason: error.message, count: { teamId, threadId, quantity } });
    },
    onSuccess: (thread, { teamId }) => {
      queryClient.setQueriesData<ThreadPage>(lists(teamId), (page) => withThread(page, thread.id, () => thread));
    },
    // Refused or not, the lists read the count as it is now.
    onSettled: (_thread, _error, { teamId }) => queryClient.invalidateQueries({ queryKey: threadsKey(teamId) }),
  });
}

export function registerSetQuantity(queryClient: QueryClient): void {
  queryClient.setMutationDefaults(setQuantityKey, setQuantityOptions(queryClient));
}

export function useSetQuantity() {
  return useMutation(setQuantityOptions(useQueryClient()));
}

/** The threads with a typed count waiting for the connection. */
export function useWaitingCounts(): Set<string> {
  return new Set(useWaitingWrites<SetQuantity>(setQuantityKey).map((change) => change.threadId));
}

/**
 * "Use mine" for a count the server refused on replay: sets it again from the count saved now
 * (read first, so this is a deliberate overwrite of what the person was shown, not a blind one).
 */
export async function setCountAgain(
  queryClient: QueryClient,
  { teamId, threadId, quantity }: { teamId: string; threadId: string; quantity: number },
) {
  const saved = await fetchThread(teamId, threadId);
  await setQuantity({ teamId, threadId, quantity, expected: saved.quantity, label: saved.name, writeKey: newWriteKey() });
  await queryClient.invalidateQueries({ queryKey: threadsKey(teamId) });
}
