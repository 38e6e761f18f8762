// The current team's catalogue threads with their quantities, for "only threads we own": every
// page of GET /api/v2/teams/{id}/threads (200 a page, the most the server gives). Read only when
// the person asks for it, so the converter keeps working without the server otherwise.
//
// The key starts like the inventory's thread reads (['inventory', team, 'threads']), so a
// change in the inventory marks this stale too without either feature importing the other.
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

export interface OwnedThread {
  line: string;
  code: string;
  quantity: number;
}

interface Page {
  threads: { line: string | null; code: string | null; quantity: number }[];
  total: number;
  per_page: number;
}

const PER_PAGE = 200;

export async function fetchOwnedThreads(teamId: string, signal?: AbortSignal): Promise<OwnedThread[]> {
  const owned: OwnedThread[] = [];
  for (let page = 1; ; page += 1) {
    const path = `/teams/${encodeURIComponent(teamId)}/threads?per_page=${PER_PAGE}&page=${page}`;
    const body = await api<Page>(path, signal ? { signal } : {});
    for (const { line, code, quantity } of body.threads) {
      // Custom threads are not in the catalogue, so the converter cannot match them.
      if (line && code) owned.push({ line, code, quantity });
    }
    if (body.threads.length === 0 || page * body.per_page >= body.total) return owned;
  }
}

export function ownedThreadsQueryOptions(teamId: string) {
  return queryOptions({
    queryKey: ['inventory', teamId, 'threads', 'owned'],
    queryFn: ({ signal }) => fetchOwnedThreads(teamId, signal),
    staleTime: 2 * 60_000,
    retry: false,
  });
}

export function useOwnedThreads(teamId: string, enabled: boolean) {
  return useQuery({ ...ownedThreadsQueryOptions(teamId), enabled: enabled && teamId !== '' });
}

/** The key of a thread in `ownedCounts`. */
export const ownedKey = (line: string, code: string) => `${line}:${code}`;

/** How many spools of each owned thread, by `ownedKey`. */
export function ownedCounts(owned: OwnedThread[]): Map<string, number> {
  return new Map(owned.map((thread) => [ownedKey(thread.line, thread.code), thread.quantity]));
}
