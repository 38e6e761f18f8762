// What the team's jobs ask of the inventory (docs/behaviour.md, "Jobs"): the jobs holding a
// thread, and what the jobs are short of (the shopping list's part for jobs), with ordering and
// receiving spools. Under the threads' key, so a change of stock reads them again.
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

import { api, productQuery, teamPath } from '@/lib/api-client';
import type { components } from '@/lib/api-schema';
import { newWriteKey } from '@/lib/offline/writes';

import { threadsKey } from './cache';

type Schemas = components['schemas'];
export type Reservations = Schemas['Reservations'];
export type JobShortfalls = Schemas['ShoppingList'];

export function reservationsQueryOptions(teamId: string, threadId: string) {
  return queryOptions({
    queryKey: [...threadsKey(teamId), 'reservations', threadId],
    queryFn: ({ signal }) => api<Reservations>(teamPath(teamId, `threads/${encodeURIComponent(threadId)}/reservations`), { signal }),
    ...productQuery,
    enabled: teamId !== '' && threadId !== '',
  });
}

export function jobShortfallsQueryOptions(teamId: string) {
  return queryOptions({
    queryKey: [...threadsKey(teamId), 'job-shortfalls'],
    queryFn: ({ signal }) => api<JobShortfalls>(teamPath(teamId, 'shopping-list'), { signal }),
    ...productQuery,
    enabled: teamId !== '',
  });
}

/** Marks spools of a thread ordered. */
export function useOrderSpools(teamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ threadId, spools }: { threadId: string; spools: number }) =>
      api(teamPath(teamId, 'orders'), {
        method: 'POST',
        body: { thread_id: threadId, spools },
        headers: { 'Idempotency-Key': newWriteKey() },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: threadsKey(teamId) }),
  });
}

/** Receives an order: its spools join the stock. */
export function useReceiveOrder(teamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (orderId: string) => api(teamPath(teamId, `orders/${encodeURIComponent(orderId)}/receive`), { method: 'POST' }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: threadsKey(teamId) }),
        queryClient.invalidateQueries({ queryKey: ['jobs', teamId] }),
      ]),
  });
}
