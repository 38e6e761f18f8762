// How long the team API's answers stay fresh (docs/behaviour.md, "Cache lifetimes"), and how writes
// refresh them.
import type { QueryClient, QueryKey } from '@tanstack/react-query';

const MINUTE = 60_000;

/** Read cache lifetimes. Anything not listed has the default, 2 minutes. */
export const staleTimes = {
  teams: 10 * MINUTE,
  team: 15 * MINUTE,
  members: 5 * MINUTE,
  teamInvites: 3 * MINUTE,
  myInvites: 5 * MINUTE,
  default: 2 * MINUTE,
} as const;

/**
 * What every team query shares: the product API never retries (the app's default of 3 retries is
 * for other fetches). A failed refetch keeps the data it had, which TanStack Query does by itself:
 * "on a failed read stale cached data is returned".
 */
export const productQuery = { retry: false } as const;

/**
 * After a write: marks `keys` stale and refetches them even where no screen watches them (the
 * default refetches only watched ones), because the team store mirrors these answers and the
 * header's team switcher reads the store.
 */
export async function refresh(queryClient: QueryClient, ...keys: QueryKey[]): Promise<void> {
  await Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey, exact: true, refetchType: 'all' })));
}
