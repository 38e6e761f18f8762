// DELETE /api/v2/teams/{publicId}/members/{userId}: removes a member (admins and owners), or,
// with the caller's own id, leaves the team (anyone but its last owner).
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, teamPath } from '@/lib/api-client';

import { refresh } from './cache';
import { forgetTeam } from './delete-team';
import { membersQueryOptions } from './get-members';
import { teamQueryOptions } from './get-team';
import { teamsQueryOptions } from './get-teams';

export interface MemberRemoval {
  publicId: string;
  userId: string;
  /** The caller leaving: the team then goes from their list (and stops being current). */
  leaving?: boolean;
}

export async function removeMember({ publicId, userId }: MemberRemoval): Promise<void> {
  await api<undefined>(teamPath(publicId, `members/${encodeURIComponent(userId)}`), { method: 'DELETE' });
}

export function useRemoveMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeMember,
    onSuccess: (_, { publicId, leaving }) =>
      leaving
        ? forgetTeam(queryClient, publicId)
        : refresh(queryClient, membersQueryOptions(publicId).queryKey, teamQueryOptions(publicId).queryKey, teamsQueryOptions().queryKey),
  });
}
