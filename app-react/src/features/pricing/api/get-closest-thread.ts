// GET /api/v2/teams/{team}/threads?closest=%23RRGGBB&per_page=1: the owned thread nearest a
// design colour ("do we own it?"). The key starts like the inventory's thread reads, so a change
// in the inventory marks it stale.
import { queryOptions, useQueries } from '@tanstack/react-query';

import { api, productQuery, teamPath } from '@/lib/api-client';
import type { components } from '@/lib/api-schema';

/** `distance` is the CIEDE2000 from the design colour. */
export type ClosestThread = Pick<components['schemas']['InventoryThread'], 'id' | 'code' | 'name' | 'line_name' | 'quantity' | 'distance'>;

export async function fetchClosestThread(teamId: string, hex: string, signal?: AbortSignal): Promise<ClosestThread | null> {
  const path = teamPath(teamId, `threads?closest=${encodeURIComponent(hex)}&per_page=1`);
  return (await api<{ threads: ClosestThread[] }>(path, signal ? { signal } : {})).threads[0] ?? null;
}

export function closestThreadQueryOptions(teamId: string, hex: string) {
  return queryOptions({
    queryKey: ['inventory', teamId, 'threads', 'closest', hex.toUpperCase()],
    queryFn: ({ signal }) => fetchClosestThread(teamId, hex, signal),
    ...productQuery,
  });
}

/** The closest owned thread of each colour, in order; none is asked without a team. */
export function useClosestThreads(teamId: string, hexes: string[]) {
  return useQueries({
    queries: hexes.map((hex) => ({ ...closestThreadQueryOptions(teamId, hex), enabled: teamId !== '' })),
  });
}
