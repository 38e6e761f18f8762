// GET /api/v2/users/me: the signed-in person's profile (docs/behaviour.md, "The profile").
import { type QueryClient, onlineManager, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { components } from '@/lib/api-schema';
import { useAuthState } from '@/lib/auth';

/** `default_team_pid` is the team the app opens first; null until the person has a team. */
export type Profile = components['schemas']['Profile'];

/** The profile is fresh for 60 seconds unless a fetch is forced. */
export const PROFILE_STALE_MS = 60_000;

const profileRoot = ['users', 'me'] as const;

/**
 * The profile of `userId`. The key holds the user id, so a different person signed in is a
 * different entry and always fetched. A failure is logged, not shown, and leaves no profile (null)
 * rather than the previous one: the fetcher answers null instead of throwing, which also keeps the
 * query from retrying (the product API does not retry).
 */
export function profileQueryOptions(userId: string) {
  return queryOptions({
    queryKey: [...profileRoot, userId],
    queryFn: async ({ signal }): Promise<Profile | null> => {
      try {
        return await api<Profile>('/users/me', { cache: 'no-store', signal });
      } catch (error) {
        // Logged for whoever debugs, not shown. A warning rather than an error: a session that
        // ended elsewhere is not a bug in this page.
        if (!signal.aborted) console.warn('Could not load the profile:', error);
        return null;
      }
    },
    // A failed fetch is not fresh: the next screen that needs the profile asks again.
    staleTime: (query) => (query.state.data === null ? 0 : PROFILE_STALE_MS),
    // Kept across reloads, so a page opened offline starts the teams from it (lib/offline/persist.ts).
    meta: { persist: true },
  });
}

/** The signed-in person's profile; undefined while loading, null when signed out or failed. */
export function useProfile(): Profile | null | undefined {
  const auth = useAuthState();
  const userId = auth.status === 'signed-in' ? auth.user.id : '';
  const query = useQuery({ ...profileQueryOptions(userId), enabled: userId !== '' });
  if (auth.status === 'signed-out') return null;
  return query.data;
}

/**
 * Fetches the profile unless the cached one is fresh (`force`: whatever its age). A fetch
 * already running for that user is joined, never repeated.
 */
export async function refreshProfile(queryClient: QueryClient, userId: string, force = false): Promise<void> {
  // Marking it stale without refetching leaves one fetch to `query`, which joins a fetch
  // already running for this key rather than starting a second. A failure is the profile
  // query's to show, not this caller's.
  // Offline, the fetch would wait for the connection: the copy kept (if any) serves meanwhile, and
  // the session's refresh on reconnecting comes back here.
  if (!onlineManager.isOnline()) return;
  if (force) await queryClient.invalidateQueries({ queryKey: [...profileRoot, userId], refetchType: 'none' });
  await queryClient.query(profileQueryOptions(userId)).catch(() => undefined);
}
