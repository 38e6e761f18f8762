// The current team's catalogue threads with their quantities, for "only threads we own": GET
// /api/v2/teams/{id}/threads/owned, one compact answer. Read only when the person asks for it,
// so the converter keeps working without the server otherwise.
//
// The key starts like the inventory's thread reads (['inventory', team, 'threads']), so a
// change in the inventory marks this stale too without either feature importing the other.
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, productQuery, teamPath } from '@/lib/api-client';
import type { components } from '@/lib/api-schema';

export type OwnedThread = components['schemas']['OwnedThread'];

export async function fetchOwnedThreads(teamId: string, signal?: AbortSignal): Promise<OwnedThread[]> {
  return (await api<components['schemas']['OwnedBody']>(teamPath(teamId, 'threads/owned'), signal ? { signal } : {})).threads;
}

export function ownedThreadsQueryOptions(teamId: string) {
  return queryOptions({
    queryKey: ['inventory', teamId, 'threads', 'owned'],
    queryFn: ({ signal }) => fetchOwnedThreads(teamId, signal),
    ...productQuery,
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
