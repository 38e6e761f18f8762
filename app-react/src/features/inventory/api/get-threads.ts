// GET /api/v2/teams/{id}/threads: a page of the team's threads, searched, filtered and sorted.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api, productQuery, teamPath } from '@/lib/api-client';

import type { ThreadFilters, ThreadPage } from '../types';
import { threadsKey } from './cache';

/** The query string of `filters`, leaving out what is not set. */
export function threadQuery(filters: ThreadFilters): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) {
    if (value === undefined || value === '' || value === false) continue;
    params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

export function fetchThreads(teamId: string, filters: ThreadFilters, signal?: AbortSignal): Promise<ThreadPage> {
  return api<ThreadPage>(teamPath(teamId, `threads${threadQuery(filters)}`), signal ? { signal } : {});
}

export function threadsQueryOptions(teamId: string, filters: ThreadFilters = {}) {
  return queryOptions({
    queryKey: [...threadsKey(teamId), 'list', filters],
    queryFn: ({ signal }) => fetchThreads(teamId, filters, signal),
    ...productQuery,
  });
}

/** `ready`: false while a filter is not yet one the server takes (a colour half typed): nothing is sent. */
export function useThreads(teamId: string, filters: ThreadFilters, ready = true) {
  // The previous page stays on screen while the next one loads: no flash between pages.
  return useQuery({
    ...threadsQueryOptions(teamId, filters),
    enabled: teamId !== '' && ready,
    placeholderData: keepPreviousData,
  });
}
