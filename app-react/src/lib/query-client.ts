import { QueryClient, type QueryExecuteOptions, type QueryKey, onlineManager } from '@tanstack/react-query';

/** What a read that cannot be served offline says (docs/behaviour.md, "Offline"). */
export const NOT_LOADED_OFFLINE = "You're offline, and this was not loaded on this device before. It loads when the connection returns.";

/**
 * How often a failed fetch that is not a product API call (the WebAssembly core, the thread
 * catalogue) is tried again: "Failed fetches are retried up to 3 times" (docs/behaviour.md,
 * "Calling the product API"). Product API reads set `retry: false` (`productQuery`).
 */
export const FETCH_RETRIES = 3;

/**
 * The waits before those retries: 250, 500 and 1,000 ms. Short, since a person is waiting for
 * what they fetch (a page's core, its icons); the data cache's own 1, 2 and 4 seconds would keep
 * a page on "loading" for 7 seconds before it can say that something is missing.
 */
export function fetchRetryDelay(attempt: number): number {
  return 250 * 2 ** attempt;
}

/**
 * The retries of a fetch that is not a product API call, for its queryOptions() (as `productQuery`
 * is for the API's). Tried also offline (`offlineFirst`): the service worker may have it (the core,
 * the catalogue, the build manifest, the icons). Offline, a failure is final at once: a retry would
 * wait for the connection, and a page with it.
 */
export const retriedFetch = {
  retry: (failures: number) => failures < FETCH_RETRIES && onlineManager.isOnline(),
  retryDelay: fetchRetryDelay,
  networkMode: 'offlineFirst',
} as const;

// One cache for the whole app. Per-endpoint lifetimes (docs/behaviour.md, "Cache lifetimes") are
// set in each endpoint's queryOptions(), next to its fetcher.
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        ...retriedFetch,
        // Reads of the API wait for the connection when offline (their kept copy shows meanwhile).
        networkMode: 'online',
        refetchOnWindowFocus: false,
      },
      // A write that cannot wait for the connection fails at once offline, with the API client's
      // "could not reach the server", rather than hang; kept writes pause (lib/offline/writes.ts).
      mutations: { retry: 0, networkMode: 'always' },
    },
  });
}

/**
 * `queryClient.query(options)` for code outside components (team start-up, a team switch, the
 * pending-invites guard): the cached answer while it is fresh, else a fetch; and when that fetch
 * fails, the answer the cache still has, however old ("on a failed read stale cached data is
 * returned", docs/behaviour.md, "Cache lifetimes"), else `kept`, a copy kept elsewhere (the team
 * store's, in localStorage). Only a read with neither fails.
 * (Components get this from `useQuery`, which keeps its data through a failed refetch.)
 */
export async function queryOrStale<T, K extends QueryKey>(
  queryClient: QueryClient,
  options: QueryExecuteOptions<T, Error, T, T, K>,
  kept?: T,
): Promise<T> {
  // Offline, a read waits (paused) for the connection: the copy answers at once instead, and with
  // none the read fails now rather than hold up a navigation (docs/behaviour.md, "Offline").
  if (!onlineManager.isOnline()) {
    const copy = queryClient.getQueryData<T>(options.queryKey) ?? kept;
    if (copy !== undefined) return copy;
    throw new Error(NOT_LOADED_OFFLINE);
  }
  try {
    return await queryClient.query(options);
  } catch (error) {
    const stale = queryClient.getQueryData<T>(options.queryKey) ?? kept;
    if (stale === undefined) throw error;
    console.warn('A read failed; using the copy kept from before:', error);
    return stale;
  }
}
