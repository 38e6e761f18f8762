// The shopping list: every low thread of the team (GET /api/v2/teams/{id}/threads?low=true, all
// pages), each with how many spools to buy (`to_buy`; docs/behaviour.md, "Low stock").
import { queryOptions, useQuery } from '@tanstack/react-query';

import { productQuery } from '@/lib/api-client';

import type { ThreadView } from '../types';
import { threadsKey } from './cache';
import { fetchThreads } from './get-threads';

/** The largest page the list gives. */
const PAGE = 200;

export async function fetchShoppingList(teamId: string, signal?: AbortSignal): Promise<ThreadView[]> {
  const threads: ThreadView[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await fetchThreads(teamId, { low: true, sort: 'code', page, per_page: PAGE }, signal);
    threads.push(...answer.threads);
    if (answer.threads.length < PAGE || threads.length >= answer.total) return threads;
  }
}

export function shoppingListQueryOptions(teamId: string) {
  return queryOptions({
    // Under the threads' key: every thread write, and a new default reorder point, refresh it.
    queryKey: [...threadsKey(teamId), 'shopping-list'],
    queryFn: ({ signal }) => fetchShoppingList(teamId, signal),
    ...productQuery,
  });
}

export function useShoppingList(teamId: string) {
  return useQuery({ ...shoppingListQueryOptions(teamId), enabled: teamId !== '' });
}
