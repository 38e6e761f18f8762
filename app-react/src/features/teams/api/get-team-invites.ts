// GET /api/v2/teams/{publicId}/invites: a team's invites (admins and owners).
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import type { Invite } from '../types';
import { productQuery, staleTimes } from './cache';

export async function fetchTeamInvites(publicId: string, signal?: AbortSignal): Promise<Invite[]> {
  const path = `/teams/${encodeURIComponent(publicId)}/invites`;
  return (await api<{ invites: Invite[] }>(path, signal ? { signal } : {})).invites;
}

export function teamInvitesQueryOptions(publicId: string) {
  return queryOptions({
    queryKey: ['teams', 'invites', publicId],
    queryFn: ({ signal }) => fetchTeamInvites(publicId, signal),
    staleTime: staleTimes.teamInvites,
    ...productQuery,
  });
}

/** Fetched only when `enabled` (the caller may see them: an admin or owner). */
export function useTeamInvites(publicId: string, enabled = true) {
  return useQuery({ ...teamInvitesQueryOptions(publicId), enabled: enabled && publicId !== '' });
}
