// POST /api/v2/invites/preview {token}: what an invite's link shows before a sign-in, the team's
// name and the inviter's (docs/behaviour.md, "Invites").
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, productQuery } from '@/lib/api-client';

import type { InvitePreview } from '../types';

export async function previewInvite(token: string, signal?: AbortSignal): Promise<InvitePreview> {
  return api<InvitePreview>('/invites/preview', { method: 'POST', body: { token }, ...(signal ? { signal } : {}) });
}

function invitePreviewQueryOptions(token: string) {
  return queryOptions({
    queryKey: ['invites', 'preview', token],
    queryFn: ({ signal }) => previewInvite(token, signal),
    ...productQuery,
  });
}

/** The invite of `token`; nothing is fetched while `token` is null. */
export function useInvitePreview(token: string | null) {
  return useQuery({ ...invitePreviewQueryOptions(token ?? ''), enabled: token !== null });
}
