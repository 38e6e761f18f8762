// What the pricing feature's reads share: their keys, and the product API's no-retry rule.
export const pricingQuery = { retry: false, staleTime: 2 * 60_000 } as const;

export function teamPath(teamId: string, rest: string): string {
  return `/teams/${encodeURIComponent(teamId)}/${rest}`;
}

/** Every saved-quote read of a team; a write invalidates them all. */
export const quotesKey = (teamId: string) => ['pricing', teamId, 'quotes'] as const;
