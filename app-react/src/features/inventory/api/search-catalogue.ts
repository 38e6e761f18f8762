// GET /api/v2/catalog/threads?q=: catalogue threads by code or name, best first.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api, productQuery } from '@/lib/api-client';

import type { CatalogueThread } from '../types';

export async function searchCatalogue(q: string, signal?: AbortSignal): Promise<CatalogueThread[]> {
  const query = new URLSearchParams({ q, limit: '20' });
  return (await api<{ threads: CatalogueThread[] }>(`/catalog/threads?${query}`, signal ? { signal } : {})).threads;
}

export function catalogueSearchQueryOptions(q: string) {
  return queryOptions({
    queryKey: ['catalogue', 'search', q],
    queryFn: ({ signal }) => searchCatalogue(q, signal),
    ...productQuery,
    // The catalogue is built into the server: it does not change while the app runs.
    staleTime: Infinity,
  });
}

export function useCatalogueSearch(q: string) {
  return useQuery({ ...catalogueSearchQueryOptions(q), enabled: q.trim() !== '', placeholderData: keepPreviousData });
}
