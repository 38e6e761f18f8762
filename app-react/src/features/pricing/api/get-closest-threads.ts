// GET /api/v2/teams/{team}/threads/closest?colours=RRGGBB,...: the owned thread nearest each of a
// design's colours ("do we own it?"), all in one request. The key starts like the inventory's
// thread reads, so a change in the inventory marks it stale.
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, productQuery, teamPath } from '@/lib/api-client';
import type { components } from '@/lib/api-schema';

/** `distance` is the CIEDE2000 from the design colour. */
export type ClosestThread = Pick<components['schemas']['InventoryThread'], 'id' | 'code' | 'name' | 'line_name' | 'quantity' | 'distance'>;

/** The most colours the server takes in one request: a design's most threads. */
export const MAX_COLOURS = 256;

/** The nearest owned thread of each colour, by colour (`#RRGGBB` in upper case); null where the
 * team owns no thread. A plain object, which the persisted query cache keeps as it is. One
 * request for a design read from a file; a saved quote with more colours than one request takes
 * (saved before designs were capped) takes one request a 256. */
export async function fetchClosestThreads(
  teamId: string,
  hexes: string[],
  signal?: AbortSignal,
): Promise<Record<string, ClosestThread | null>> {
  const colours = [...new Set(hexes.map((hex) => hex.toUpperCase()))];
  const parts = Array.from({ length: Math.ceil(colours.length / MAX_COLOURS) }, (_, index) =>
    colours.slice(index * MAX_COLOURS, (index + 1) * MAX_COLOURS),
  );
  const answers = await Promise.all(
    parts.map((part) => {
      const path = teamPath(teamId, `threads/closest?colours=${part.map((hex) => hex.replace('#', '')).join(',')}`);
      return api<components['schemas']['ClosestBody']>(path, signal ? { signal } : {});
    }),
  );
  return Object.fromEntries(answers.flatMap((body) => body.closest.map((found) => [found.colour.toUpperCase(), found.thread ?? null])));
}

export function closestThreadsQueryOptions(teamId: string, hexes: string[]) {
  const colours = [...new Set(hexes.map((hex) => hex.toUpperCase()))].sort();
  return queryOptions({
    queryKey: ['inventory', teamId, 'threads', 'closest', colours],
    queryFn: ({ signal }) => fetchClosestThreads(teamId, colours, signal),
    ...productQuery,
  });
}

/** The closest owned thread of each colour, asked in one request; none is asked without a team. */
export function useClosestThreads(teamId: string, hexes: string[]) {
  return useQuery({ ...closestThreadsQueryOptions(teamId, hexes), enabled: teamId !== '' && hexes.length > 0 });
}
