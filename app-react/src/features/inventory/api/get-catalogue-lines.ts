// GET /api/v2/catalog/lines: the catalogue's thread lines (for the line pickers).
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, productQuery } from '@/lib/api-client';

export interface CatalogueLine {
  id: string;
  display_name: string;
  /** What the line is made of (polyester, rayon, wool-blend…), where its maker says. */
  fibre: string | null;
}

/** The fibres of `lines`, each once, in the order they first appear. */
export function fibresOf(lines: readonly CatalogueLine[]): string[] {
  return [...new Set(lines.flatMap((line) => (line.fibre ? [line.fibre] : [])))];
}

export async function fetchCatalogueLines(signal?: AbortSignal): Promise<CatalogueLine[]> {
  return (await api<{ lines: CatalogueLine[] }>('/catalog/lines', signal ? { signal } : {})).lines;
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
