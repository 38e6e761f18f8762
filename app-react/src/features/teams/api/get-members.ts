// GET /api/v2/teams/{publicId}/members: everyone in a team, with their roles.
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, productQuery, teamPath } from '@/lib/api-client';

import { teamStore } from '../store';
import type { Member } from '../types';
import { staleTimes } from './cache';

export async function fetchMembers(publicId: string, signal?: AbortSignal): Promise<Member[]> {
  return (await api<{ members: Member[] }>(teamPath(publicId, 'members'), signal ? { signal } : {})).members;
}

export function membersQueryOptions(publicId: string) {
  return queryOptions({
    queryKey: ['teams', 'members', publicId],
    // Into the team store when `publicId` is the current team (the store holds only its list).
    queryFn: async ({ signal }) => {
      const members = await fetchMembers(publicId, signal);
      teamStore.getState().setMembers(publicId, members);
      return members;
    },
    ...productQuery,
    staleTime: staleTimes.members,
  });
}

export function useMembers(publicId: string) {
  return useQuery({ ...membersQueryOptions(publicId), enabled: publicId !== '' });
}
