// GET /api/v2/teams/{publicId}/members: everyone in a team, with their roles.
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import type { Member } from '../types';
import { productQuery, staleTimes } from './cache';

export async function fetchMembers(publicId: string, signal?: AbortSignal): Promise<Member[]> {
  const path = `/teams/${encodeURIComponent(publicId)}/members`;
  return (await api<{ members: Member[] }>(path, signal ? { signal } : {})).members;
}

export function membersQueryOptions(publicId: string) {
  return queryOptions({
    queryKey: ['teams', 'members', publicId],
    queryFn: ({ signal }) => fetchMembers(publicId, signal),
    staleTime: staleTimes.members,
    ...productQuery,
  });
}

export function useMembers(publicId: string) {
  return useQuery({ ...membersQueryOptions(publicId), enabled: publicId !== '' });
}
