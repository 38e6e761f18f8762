// The inventory's history of stock changes made by jobs and orders (docs/behaviour.md, "Jobs"):
// a page of changes, newest first, and the undo of one. Under the threads' key, so a change of
// stock reads it again.
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

import { api, productQuery, teamPath } from '@/lib/api-client';
import type { components } from '@/lib/api-schema';

import { threadsKey } from './cache';

export type StockChange = components['schemas']['ChangeView'];
export type StockChangePage = components['schemas']['ChangePage'];

export const HISTORY_PAGE = 20;

export function stockHistoryQueryOptions(teamId: string, page: number) {
  return queryOptions({
    queryKey: [...threadsKey(teamId), 'history', page],
    queryFn: ({ signal }) => api<StockChangePage>(teamPath(teamId, `stock-changes?page=${page}&per_page=${HISTORY_PAGE}`), { signal }),
    ...productQuery,
    placeholderData: keepPreviousData,
    enabled: teamId !== '',
  });
}

export function useUndoStockChange(teamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changeId: string) =>
      api<{ change: StockChange }>(teamPath(teamId, `stock-changes/${encodeURIComponent(changeId)}/undo`), { method: 'POST' }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: threadsKey(teamId) }),
        queryClient.invalidateQueries({ queryKey: ['jobs', teamId] }),
      ]),
  });
}
