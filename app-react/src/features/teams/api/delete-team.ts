// DELETE /api/v2/teams/{publicId}: deletes a team (owners only).
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';

import { api, teamPath } from '@/lib/api-client';

import { teamStore } from '../store';
import { refresh } from './cache';
import { teamsQueryOptions } from './get-teams';

export async function deleteTeam(publicId: string): Promise<void> {
  await api<undefined>(teamPath(publicId), { method: 'DELETE' });
}

/**
 * A team the person is no longer in (deleted, or left): out of the store (no longer current:
 * docs/behaviour.md, "The team store"), its cached answers dropped, and the cached team list
 * stale, so the next initialisation does not bring the team back from it.
 */
export async function forgetTeam(queryClient: QueryClient, publicId: string): Promise<void> {
  teamStore.getState().removeTeam(publicId);
  // Every per-team query key is ['teams', kind, publicId] (detail, members, invites, settings).
  queryClient.removeQueries({ predicate: ({ queryKey }) => queryKey[0] === 'teams' && queryKey[2] === publicId });
  await refresh(queryClient, teamsQueryOptions().queryKey);
}

export function useDeleteTeam() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteTeam, onSuccess: (_, publicId) => forgetTeam(queryClient, publicId) });
}
