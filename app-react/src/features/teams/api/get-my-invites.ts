// GET /api/v2/users/me/invites: the pending invites addressed to the signed-in person's e-mail.
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, productQuery } from '@/lib/api-client';

import { teamStore } from '../store';
import type { Invite } from '../types';
import { staleTimes } from './cache';

export async function fetchMyInvites(signal?: AbortSignal): Promise<Invite[]> {
  return (await api<{ invites: Invite[] }>('/users/me/invites', signal ? { signal } : {})).invites;
}

export function myInvitesQueryOptions() {
  return queryOptions({
    queryKey: ['invites', 'mine'],
    queryFn: async ({ signal }) => {
      const invites = await fetchMyInvites(signal);
      teamStore.getState().setMyInvites(invites);
      return invites;
    },
    ...productQuery,
    staleTime: staleTimes.myInvites,
  });
}

export function useMyInvites() {
  return useQuery(myInvitesQueryOptions());
}
