// Signing out (here, in another tab, or signing in as someone else) must leave nothing of the
// person for the next one at the same browser: not the data cache (teams, invites, inventories
// kept by TanStack Query, which would answer the next person's pages with no request made, and its
// copy kept in IndexedDB for offline use), not
// the team store, not the session-scoped flags, not anything kept in storage.
import type { QueryClient } from '@tanstack/react-query';

import { removePersistedCache } from '@/lib/offline/persist';
import { clearLocalTeamData, removeStoredKeys } from '@/lib/team-data';

/** Every key the app writes to localStorage and sessionStorage starts with this. */
export const STORAGE_PREFIX = 'bobbin:';

/** Who the data kept in this browser belongs to (the signed-in person's id). */
export const PERSON_KEY = `${STORAGE_PREFIX}person`;

/** Whose data each data cache of this tab holds (one cache per app; tests make several). */
const cachedFor = new WeakMap<QueryClient, string>();

/** Forgets everything the app holds of the signed-in person. */
export async function forgetPerson(queryClient: QueryClient): Promise<void> {
  // Fetches in flight are told to stop, and the cache is emptied at once, in the same turn: no
  // answer for the last person can land in it after this.
  const stopped = queryClient.cancelQueries();
  queryClient.clear();
  clearLocalTeamData();
  for (const storage of [safeStorage('localStorage'), safeStorage('sessionStorage')]) {
    if (storage) removeStoredKeys(storage, STORAGE_PREFIX);
  }
  cachedFor.delete(queryClient);
  // The copy kept for offline use (lib/offline/persist.ts), and with it the writes kept offline.
  await Promise.all([
    stopped,
    removePersistedCache().catch((error: unknown) => console.warn('The kept data could not be removed:', error)),
  ]);
}

/**
 * Records that `userId` is the person signed in; answers whether this tab, or the browser's
 * storage, held someone else's data (it should then be forgotten before anything is shown).
 * Both count: another tab may have recorded the new person in the shared storage already (they
 * signed in there), while this tab's memory still holds the last one's; and a reload keeps only
 * the storage's record, which catches a session that ended while no tab was open.
 */
export function claimForPerson(queryClient: QueryClient, userId: string): boolean {
  const inThisTab = cachedFor.get(queryClient) ?? null;
  cachedFor.set(queryClient, userId);
  const storage = safeStorage('localStorage');
  const stored = storage?.getItem(PERSON_KEY) ?? null;
  storage?.setItem(PERSON_KEY, userId);
  return (inThisTab !== null && inThisTab !== userId) || (stored !== null && stored !== userId);
}

function safeStorage(name: 'localStorage' | 'sessionStorage'): Storage | null {
  try {
    return window[name];
  } catch {
    // Storage disabled: nothing was kept either.
    return null;
  }
}
