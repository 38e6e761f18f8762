// The person's own account and data (docs/behaviour.md, "Your account and your data"):
// GET /api/v2/users/me/deletion (what deleting would take), DELETE /api/v2/users/me, and the link
// of GET /api/v2/users/me/export.
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';

import { API_BASE, api } from '@/lib/api-client';
import type { components } from '@/lib/api-schema';

export type Deletion = components['schemas']['DeletionView'];
export type TeamRef = components['schemas']['TeamRef'];

/** The download of the person's data: a plain link, which sends the auth cookie. */
export const myDataUrl = `${API_BASE}/users/me/export`;

export function deletionQueryOptions() {
  return queryOptions({
    queryKey: ['users', 'me', 'deletion'],
    queryFn: ({ signal }) => api<Deletion>('/users/me/deletion', { cache: 'no-store', signal }),
    retry: false,
    // What blocks a deletion changes in other screens (a team handed over): read it each time.
    staleTime: 0,
  });
}

export function useDeletion() {
  return useQuery(deletionQueryOptions());
}

/** Deletes the account; `password` is left out when the session is at aal2. */
export async function deleteAccount(password: string | undefined): Promise<void> {
  await api<undefined>('/users/me', { method: 'DELETE', body: password === undefined ? {} : { password } });
}

export function useDeleteAccount() {
  return useMutation({ mutationFn: deleteAccount });
}
