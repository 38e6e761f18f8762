// Reads kept across reloads (docs/behaviour.md, "Offline"): the data cache's product API answers
// (`productQuery` marks them `meta.persist`) and the writes waiting for a connection are saved in
// IndexedDB, and restored at the next page load before any page reads them, so a page opened
// without a connection shows the last copy this browser had. TanStack Query's persister does the
// saving (reads at most once a second, writes at once) and the restoring; idb-keyval is its
// storage.
//
// Nothing of the icons, the core or the catalogue is kept here: the service worker has those.
// Signing out (or someone else signing in) removes the saved copy (app/forget-person.ts).
import { createAsyncStoragePersister } from '@tanstack/query-async-storage-persister';
import type { Mutation, Query } from '@tanstack/react-query';
import type { PersistQueryClientOptions, PersistedClient, Persister } from '@tanstack/react-query-persist-client';
import { del, get, set } from 'idb-keyval';

/** The IndexedDB key (idb-keyval's default database) of the saved data cache. */
export const PERSISTED_CACHE_KEY = 'bobbin:data-cache';

/** A saved copy older than this is not restored: a week-old stock count misleads more than it helps. */
export const PERSISTED_MAX_AGE_MS = 7 * 24 * 60 * 60_000;

/** Whether this browser can keep the data cache (no IndexedDB in unit tests, nor in some private windows). */
export function canPersist(): boolean {
  return typeof indexedDB !== 'undefined';
}

const storage = { getItem: get<string>, setItem: set, removeItem: del };
const throttled = createAsyncStoragePersister({ storage, key: PERSISTED_CACHE_KEY, throttleTime: 1000 });
const immediate = createAsyncStoragePersister({ storage, key: PERSISTED_CACHE_KEY, throttleTime: 0 });

/**
 * Which kept writes a saved copy holds: each by when it was made, and whether its change to the
 * reads on screen (its context, made after it) is in, so that change is saved at once too.
 */
const writesOf = (client: PersistedClient) =>
  client.clientState.mutations.map(({ state }) => `${state.submittedAt}${state.context === undefined ? '' : '+'}`).join(',');
let savedWrites = '';

/**
 * Reads are saved at most once a second; a change to the kept writes at once, so a reload or a
 * closed tab right after a tap made offline loses nothing. (The throttled save still pending
 * carries the latest state when it runs: the throttle keeps the last call's.)
 */
const persister: Persister = {
  persistClient: (client) => {
    const writes = writesOf(client);
    if (writes === savedWrites) return throttled.persistClient(client);
    savedWrites = writes;
    return immediate.persistClient(client);
  },
  restoreClient: () => throttled.restoreClient(),
  removeClient: () => throttled.removeClient(),
};

/**
 * How the data cache is kept. The copy is the signed-in person's: signing out removes it, and so
 * does someone else signing in on this browser, before anything of theirs is loaded
 * (app/forget-person.ts); until then only the sign-in pages, which read none of it, are open.
 */
export function persistOptions(): Omit<PersistQueryClientOptions, 'queryClient'> {
  return {
    persister,
    maxAge: PERSISTED_MAX_AGE_MS,
    dehydrateOptions: {
      shouldDehydrateQuery: (query: Query) => query.state.status === 'success' && query.meta?.['persist'] === true,
      // Only writes that know how to be sent again after a reload (src/lib/offline/writes.ts).
      shouldDehydrateMutation: (mutation: Mutation) => mutation.state.isPaused && mutation.options.meta?.['kept'] === true,
    },
  };
}

/** Removes the saved copy (sign-out). */
export async function removePersistedCache(): Promise<void> {
  if (canPersist()) await persister.removeClient();
}
