// GET /api/v2/catalog/threads?q=&lines=: catalogue threads by code or name, best first, in one
// line or ('') in every line.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api, productQuery } from '@/lib/api-client';

import type { CatalogueThread } from '../types';

export async function searchCatalogue(q: string, line = '', signal?: AbortSignal): Promise<CatalogueThread[]> {
  const query = new URLSearchParams({ q, limit: '20' });
  if (line) query.set('lines', line);
  return (await api<{ threads: CatalogueThread[] }>(`/catalog/threads?${query}`, signal ? { signal } : {})).threads;
}

export function catalogueSearchQueryOptions(q: string, line = '') {
  return queryOptions({
    queryKey: ['catalogue', 'search', q, line],
    queryFn: ({ signal }) => searchCatalogue(q, line, signal),
    ...productQuery,
    // The catalogue is built into the server: it does not change while the app runs.
    staleTime: Infinity,
  });
}

export function useCatalogueSearch(q: string, line = '') {
  return useQuery({ ...catalogueSearchQueryOptions(q, line), enabled: q.trim() !== '', placeholderData: keepPreviousData });
}
