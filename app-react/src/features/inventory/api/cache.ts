// What every inventory query shares: the product API never retries, and answers stay fresh for the
// default 2 minutes (docs/behaviour.md, "Calling the product API" and "Cache lifetimes"). Keys
// start with the team, so one team's entries never show under another's name.
export const inventoryQuery = { retry: false, staleTime: 2 * 60_000 } as const;

/** The path of `teamId`'s inventory resource `rest`, under /api/v2. */
export function teamPath(teamId: string, rest: string): string {
  return `/teams/${encodeURIComponent(teamId)}/${rest}`;
}

/** Every cached read of `teamId`'s threads (lists and entries): what thread writes refresh. */
export const threadsKey = (teamId: string) => ['inventory', teamId, 'threads'] as const;

/** Every cached read of `teamId`'s machines. */
export const machinesKey = (teamId: string) => ['inventory', teamId, 'machines'] as const;
