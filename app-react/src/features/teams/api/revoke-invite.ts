// POST /api/v2/invites/{publicId}/revoke: a team's admin withdraws an invite, or the person it
// is addressed to declines it.
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import type { Invite } from '../types';
import { refresh } from './cache';
import { myInvitesQueryOptions } from './get-my-invites';
import { teamInvitesQueryOptions } from './get-team-invites';

export async function revokeInvite(invitePublicId: string): Promise<Invite> {
  const path = `/invites/${encodeURIComponent(invitePublicId)}/revoke`;
  return (await api<{ invite: Invite }>(path, { method: 'POST' })).invite;
}

export function useRevokeInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeInvite,
    onSuccess: (invite) => refresh(queryClient, teamInvitesQueryOptions(invite.team_public_id).queryKey, myInvitesQueryOptions().queryKey),
  });
}
