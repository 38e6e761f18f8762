// GET /api/v2/teams/{id}/threads/{threadId}: one entry.
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, productQuery, teamPath } from '@/lib/api-client';

import type { ThreadView } from '../types';
import { threadsKey } from './cache';

export async function fetchThread(teamId: string, threadId: string, signal?: AbortSignal): Promise<ThreadView> {
  const path = teamPath(teamId, `threads/${encodeURIComponent(threadId)}`);
  return (await api<{ thread: ThreadView }>(path, signal ? { signal } : {})).thread;
}

export function threadQueryOptions(teamId: string, threadId: string) {
  return queryOptions({
    queryKey: [...threadsKey(teamId), 'one', threadId],
    queryFn: ({ signal }) => fetchThread(teamId, threadId, signal),
    ...productQuery,
  });
}

export function useThread(teamId: string, threadId: string) {
  return useQuery({ ...threadQueryOptions(teamId, threadId), enabled: teamId !== '' && threadId !== '' });
}
