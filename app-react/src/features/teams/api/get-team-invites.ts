// GET /api/v2/teams/{publicId}/invites: a team's invites (admins and owners).
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, productQuery, teamPath } from '@/lib/api-client';

import { teamStore } from '../store';
import type { Invite } from '../types';
import { staleTimes } from './cache';

export async function fetchTeamInvites(publicId: string, signal?: AbortSignal): Promise<Invite[]> {
  return (await api<{ invites: Invite[] }>(teamPath(publicId, 'invites'), signal ? { signal } : {})).invites;
}

export function teamInvitesQueryOptions(publicId: string) {
  return queryOptions({
    queryKey: ['teams', 'invites', publicId],
    // Into the team store when `publicId` is the current team (the store holds only its list).
    queryFn: async ({ signal }) => {
      const invites = await fetchTeamInvites(publicId, signal);
      teamStore.getState().setInvites(publicId, invites);
      return invites;
    },
    ...productQuery,
    staleTime: staleTimes.teamInvites,
  });
}

/** Fetched only when `enabled` (the caller may see them: an admin or owner). */
export function useTeamInvites(publicId: string, enabled = true) {
  return useQuery({ ...teamInvitesQueryOptions(publicId), enabled: enabled && publicId !== '' });
}
