// Signing out (here, in another tab, or signing in as someone else) must leave nothing of the
// person for the next one at the same browser: not the data cache (teams, invites, inventories
// kept by TanStack Query, which would answer the next person's pages with no request made), not
// the team store, not the session-scoped flags, not anything kept in storage.
import type { QueryClient } from '@tanstack/react-query';

import { clearLocalTeamData, removeStoredKeys } from '@/lib/team-data';

/** Every key the app writes to localStorage and sessionStorage starts with this. */
export const STORAGE_PREFIX = 'bobbin:';

/** Who the data kept in this browser belongs to (the signed-in person's id). */
export const PERSON_KEY = `${STORAGE_PREFIX}person`;

/** Forgets everything the app holds of the signed-in person. */
export async function forgetPerson(queryClient: QueryClient): Promise<void> {
  // Fetches in flight are stopped first, so none can fill the cache again after the clear.
  await queryClient.cancelQueries();
  queryClient.clear();
  clearLocalTeamData();
  for (const storage of [safeStorage('localStorage'), safeStorage('sessionStorage')]) {
    if (storage) removeStoredKeys(storage, STORAGE_PREFIX);
  }
}

/**
 * Records that `userId` is the person signed in; answers whether the browser held someone
 * else's data (it should then be forgotten before anything is shown). The record survives a
 * reload, so a session that ended while the tab was closed is caught too.
 */
export function claimForPerson(userId: string): boolean {
  const storage = safeStorage('localStorage');
  if (!storage) return false;
  const previous = storage.getItem(PERSON_KEY);
  storage.setItem(PERSON_KEY, userId);
  return previous !== null && previous !== userId;
}

function safeStorage(name: 'localStorage' | 'sessionStorage'): Storage | null {
  try {
    return window[name];
  } catch {
    // Storage disabled: nothing was kept either.
    return null;
  }
}
