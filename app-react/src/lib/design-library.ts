// The team's design library as the screens read it (docs/behaviour.md, "Design library"): the
// list and one design from the product API (GET /api/v2/teams/{team}/designs[/{id}]), and a
// design's preview, which the server drew when the file came. Shared by the library's pages and
// the pricing calculator, which picks designs from it (features never import one another).
// Every read is kept in the browser like the other reads (`productQuery`), so the list, the
// designs opened and the previews seen open offline.
import { type QueryClient, keepPreviousData, queryOptions } from '@tanstack/react-query';

import type { components } from './api-schema';
import { api, apiText, productQuery, teamPath } from './api-client';
import type { ColourBlock, DesignSummary } from './core';

type Schemas = components['schemas'];

/** One colour block of a design, in stitching order: its stitches, the length they lay, and its
 * colour where the file stores one (PES, VP3). */
export type DesignBlock = ColourBlock;

/** What Bobbin read of a file as a design: its figures, why it could not be read, or nothing
 * (a file that is no design). */
export type DesignRead = { summary: DesignSummary; blocks?: DesignBlock[] } | { unreadable: string } | null;

export type LibraryItem = Omit<Schemas['DesignItem'], 'design'> & { design: DesignRead };
export type LibraryPage = Omit<Schemas['DesignPage'], 'designs'> & { designs: LibraryItem[] };
export type LibraryDesign = Omit<Schemas['DesignBody'], 'design'> & { design: LibraryItem };

export type LibrarySort = 'name' | 'updated' | 'size';
export interface LibraryQuery {
  q: string;
  sort: LibrarySort;
  order: 'asc' | 'desc';
  page: number;
  perPage: number;
  /** Only the designs Bobbin can read. */
  readable?: boolean;
}

export const libraryKey = (teamId: string) => ['designs', teamId] as const;

/** After a change to the library: its lists and designs are read again. Not the previews, which
 * are keyed by content (a preview refetched for a file just removed would only fail). */
export function libraryChanged(queryClient: QueryClient, teamId: string): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: libraryKey(teamId), predicate: (query) => query.queryKey[2] !== 'preview' });
}

/** The design's summary, when it is a design Bobbin read. */
export function summaryOf(item: Pick<LibraryItem, 'design'>): DesignSummary | null {
  return item.design && 'summary' in item.design ? item.design.summary : null;
}

/** The name shown: the file's name, without the folders of its key. */
export function fileNameOf(key: string): string {
  return key.slice(key.lastIndexOf('/') + 1);
}

export function libraryQueryOptions(teamId: string, query: LibraryQuery) {
  const search = new URLSearchParams({
    q: query.q.trim(),
    sort: query.sort,
    order: query.order,
    page: String(query.page),
    per_page: String(query.perPage),
    ...(query.readable ? { readable: 'true' } : {}),
  });
  return queryOptions({
    queryKey: [...libraryKey(teamId), 'list', query],
    queryFn: ({ signal }) => api<LibraryPage>(teamPath(teamId, `designs?${search}`), { signal }),
    ...productQuery,
    // A new search or page keeps the last one on screen until it comes.
    placeholderData: keepPreviousData,
    enabled: teamId !== '',
  });
}

export function designQueryOptions(teamId: string, designId: string) {
  return queryOptions({
    queryKey: [...libraryKey(teamId), 'one', designId],
    queryFn: ({ signal }) => api<LibraryDesign>(teamPath(teamId, `designs/${encodeURIComponent(designId)}`), { signal }),
    ...productQuery,
    enabled: teamId !== '' && designId !== '',
  });
}

/**
 * A design's preview, SVG text. Keyed by the content's ETag where it is known (the list gives
 * it), so a preview seen is never fetched again until the file is replaced; without one (a
 * reopened quote), read again when stale, which the browser answers from its own cache after a
 * 304.
 */
export function previewQueryOptions(teamId: string, designId: string, etag: string) {
  return queryOptions({
    queryKey: [...libraryKey(teamId), 'preview', designId, etag],
    queryFn: ({ signal }) => apiText(teamPath(teamId, `designs/${encodeURIComponent(designId)}/preview.svg`), { signal }),
    ...productQuery,
    staleTime: etag ? Number.POSITIVE_INFINITY : productQuery.staleTime,
    enabled: teamId !== '' && designId !== '',
  });
}
