// POST /api/v2/invites/accept {token}: accepts the invite of an e-mailed link.
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import type { Accepted } from '../types';
import { afterAccepted } from './accept-invite';

export async function acceptInviteByToken(token: string): Promise<Accepted> {
  return api<Accepted>('/invites/accept', { method: 'POST', body: { token } });
}

export function useAcceptInviteByToken() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: acceptInviteByToken, onSuccess: (accepted) => afterAccepted(queryClient, accepted) });
}
