// POST /api/v2/teams/{publicId}/invites {email, role}: invites an e-mail address to a team
// (admins and owners); the server e-mails the accept link.
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, teamPath } from '@/lib/api-client';

import type { Invite, Role } from '../types';
import { refresh } from './cache';
import { teamInvitesQueryOptions } from './get-team-invites';

export interface NewInvite {
  publicId: string;
  email: string;
  role: Role;
}

export async function createInvite({ publicId, email, role }: NewInvite): Promise<Invite> {
  return (await api<{ invite: Invite }>(teamPath(publicId, 'invites'), { method: 'POST', body: { email, role } })).invite;
}

export function useCreateInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createInvite,
    onSuccess: (_, { publicId }) => refresh(queryClient, teamInvitesQueryOptions(publicId).queryKey),
  });
}
