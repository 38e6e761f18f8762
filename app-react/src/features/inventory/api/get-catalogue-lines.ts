// GET /api/v2/catalog/lines: the catalogue's thread lines (for the line pickers).
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, productQuery } from '@/lib/api-client';
import type { components } from '@/lib/api-schema';

import type { CatalogueLine } from '../types';

/** The fibres of `lines` (what each is made of, where its maker says), each once, in the order
 * they first appear. */
export function fibresOf(lines: readonly Pick<CatalogueLine, 'fibre'>[]): string[] {
  return [...new Set(lines.flatMap((line) => (line.fibre ? [line.fibre] : [])))];
}

export async function fetchCatalogueLines(signal?: AbortSignal): Promise<CatalogueLine[]> {
  return (await api<components['schemas']['LinesResponse']>('/catalog/lines', signal ? { signal } : {})).lines;
}

export function catalogueLinesQueryOptions() {
  return queryOptions({
    queryKey: ['catalogue', 'lines'],
    queryFn: ({ signal }) => fetchCatalogueLines(signal),
    ...productQuery,
    // Built into the server: unchanged while the app runs.
    staleTime: Infinity,
  });
}

export function useCatalogueLines() {
  return useQuery(catalogueLinesQueryOptions());
}
