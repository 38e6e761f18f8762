// How long the team API's answers stay fresh (docs/behaviour.md, "Cache lifetimes"), and how
// writes refresh them.
import type { QueryClient, QueryKey } from '@tanstack/react-query';

const MINUTE = 60_000;

/**
 * Read cache lifetimes. Anything not listed has the product API's default, 2 minutes
 * (`productQuery` in lib/api-client.ts).
 */
export const staleTimes = {
  teams: 10 * MINUTE,
  team: 15 * MINUTE,
  members: 5 * MINUTE,
  teamInvites: 3 * MINUTE,
  myInvites: 5 * MINUTE,
} as const;

/**
 * After a write: marks `keys` stale, and fetches again those a screen shows (TanStack Query's
 * default). The rest are fetched when next read. A read still on its way is dropped first: the
 * server may have answered it before the write, and landing after it, it would put back what the
 * write changed (the header's invite count, read as an invite link is accepted). The team store
 * needs no more than that: each fetch puts its answer there (./get-*.ts), and a write whose answer
 * the header shows (a rename, a team joined) puts that answer there itself.
 */
export async function refresh(queryClient: QueryClient, ...keys: QueryKey[]): Promise<void> {
  await Promise.all(
    keys.map(async (queryKey) => {
      await queryClient.cancelQueries({ queryKey, exact: true });
      await queryClient.invalidateQueries({ queryKey, exact: true });
    }),
  );
}
