// POST /api/v2/invites/{publicId}/accept: accepts an invite from My Invites (only the person it
// is addressed to may). Answers the invite and the team joined, as accepting by token does.
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import type { Accepted } from '../types';
import { refresh } from './cache';
import { myInvitesQueryOptions } from './get-my-invites';
import { membersQueryOptions } from './get-members';
import { putTeam } from './get-team';
import { teamInvitesQueryOptions } from './get-team-invites';
import { teamsQueryOptions } from './get-teams';

export async function acceptInvite(invitePublicId: string): Promise<Accepted> {
  return api<Accepted>(`/invites/${encodeURIComponent(invitePublicId)}/accept`, { method: 'POST' });
}

/** A team joined: its details cached (and in the switcher), and what lists it (or the invite) fetched again. */
export async function afterAccepted(queryClient: QueryClient, { team }: Accepted): Promise<void> {
  putTeam(queryClient, team);
  await refresh(
    queryClient,
    teamsQueryOptions().queryKey,
    myInvitesQueryOptions().queryKey,
    membersQueryOptions(team.public_id).queryKey,
    teamInvitesQueryOptions(team.public_id).queryKey,
  );
}

export function useAcceptInvite() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: acceptInvite, onSuccess: (accepted) => afterAccepted(queryClient, accepted) });
}
