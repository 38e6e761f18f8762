// GET /api/v2/users/me/invites: the pending invites addressed to the signed-in person's e-mail.
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import type { Invite } from '../types';
import { productQuery, staleTimes } from './cache';

export async function fetchMyInvites(signal?: AbortSignal): Promise<Invite[]> {
  return (await api<{ invites: Invite[] }>('/users/me/invites', signal ? { signal } : {})).invites;
}

export function myInvitesQueryOptions() {
  return queryOptions({
    queryKey: ['invites', 'mine'],
    queryFn: ({ signal }) => fetchMyInvites(signal),
    staleTime: staleTimes.myInvites,
    ...productQuery,
  });
}

export function useMyInvites() {
  return useQuery(myInvitesQueryOptions());
}
