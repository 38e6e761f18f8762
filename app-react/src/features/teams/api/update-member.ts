// POST /api/v2/teams/{publicId}/members {userId, role}: adds a member or changes a member's
// role (admins and owners; only owners grant or take away the owner role).
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, teamPath } from '@/lib/api-client';

import type { Member, Role } from '../types';
import { refresh } from './cache';
import { membersQueryOptions } from './get-members';
import { teamQueryOptions } from './get-team';
import { teamsQueryOptions } from './get-teams';

export interface MemberChange {
  publicId: string;
  userId: string;
  role: Role;
}

export async function saveMember({ publicId, userId, role }: MemberChange): Promise<Member> {
  return (await api<{ member: Member }>(teamPath(publicId, 'members'), { method: 'POST', body: { userId, role } })).member;
}

export function useSaveMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveMember,
    // The caller's own role may have changed (an owner handing over), and with it the team's
    // `role` field; a new member changes `member_count`.
    onSuccess: (_, { publicId }) =>
      refresh(queryClient, membersQueryOptions(publicId).queryKey, teamQueryOptions(publicId).queryKey, teamsQueryOptions().queryKey),
  });
}
