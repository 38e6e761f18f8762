// `/designs` ('Design Library'): the team's files as a grid of previews, each with its name,
// stitches, size and colours; search by name, sort, pages; adding files (several at once, with
// progress), renaming and removing them for members and above. Offline, the list and the
// previews seen before open read-only.
import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useId, useState } from 'react';

import { LoadingStatus } from '@/components/LoadingStatus';
import { pageTitle } from '@/config/paths';
import { storageApi } from '@/lib/api-client';
import { type LibraryQuery, type LibrarySort, libraryKey, libraryQueryOptions } from '@/lib/design-library';
import { useOnline } from '@/lib/offline/online';
import { productQuery } from '@/lib/api-client';

import { DesignCard } from './components/DesignCard';
import { Uploads } from './components/Uploads';
import type { LibraryAccess } from './types';

const TITLE = 'Design Library';
const PER_PAGE = 24;

/** The sort menu's choices: a field and a direction each. */
const SORTS = {
  'name-asc': ['name', 'asc', 'Name, A to Z'],
  'name-desc': ['name', 'desc', 'Name, Z to A'],
  'updated-desc': ['updated', 'desc', 'Recently changed first'],
  'updated-asc': ['updated', 'asc', 'Least recently changed first'],
  'size-desc': ['size', 'desc', 'Largest file first'],
} as const satisfies Record<string, readonly [LibrarySort, 'asc' | 'desc', string]>;
type SortChoice = keyof typeof SORTS;

/** The team's bucket (GET /storage/v1/bucket/{team}): the largest file it takes. */
function useFileLimit(teamId: string): number | null {
  const bucket = useQuery({
    queryKey: [...libraryKey(teamId), 'bucket'],
    queryFn: ({ signal }) => storageApi<{ file_size_limit: number | null }>(`/bucket/${encodeURIComponent(teamId)}`, { signal }),
    ...productQuery,
  });
  return bucket.data?.file_size_limit ?? null;
}

export function DesignsPage({ teamId, canWrite }: LibraryAccess) {
  const id = useId();
  const online = useOnline();
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<SortChoice>('name-asc');
  const [page, setPage] = useState(1);
  const q = useDeferredValue(search);
  const [field, order] = SORTS[sort];
  const query: LibraryQuery = { q, sort: field, order, page, perPage: PER_PAGE };
  const list = useQuery(libraryQueryOptions(teamId, query));
  const maxBytes = useFileLimit(teamId);
  const pages = list.data ? Math.max(1, Math.ceil(list.data.total / list.data.per_page)) : 1;
  // The last file of the last page removed (or renamed away): back to the last page there is.
  if (list.data && !list.isPlaceholderData && page > pages) setPage(pages);

  return (
    <div className="designs">
      <title>{pageTitle(TITLE)}</title>
      <h1>{TITLE}</h1>
      {canWrite ? <Uploads teamId={teamId} maxBytes={maxBytes} online={online} /> : null}
      <div className="designs__toolbar" role="search">
        <div className="field">
          <label htmlFor={`${id}-search`}>Search designs</label>
          <input
            id={`${id}-search`}
            type="search"
            value={search}
            onChange={(event) => {
              setSearch(event.target.value);
              setPage(1);
            }}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-sort`}>Sort</label>
          <select
            id={`${id}-sort`}
            value={sort}
            onChange={(event) => {
              setSort(event.target.value as SortChoice);
              setPage(1);
            }}
          >
            {Object.entries(SORTS).map(([value, [, , label]]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
      </div>
      <LoadingStatus query={list}>Loading the library…</LoadingStatus>
      {list.isError && !list.data ? <p role="alert">The library could not be loaded. Check the connection and reload the page.</p> : null}
      {list.data ? (
        <p className="muted" role="status">
          {list.data.total === 0
            ? q.trim()
              ? 'No file in the library has that in its name.'
              : canWrite
                ? 'No designs yet: add the first above.'
                : 'No designs yet.'
            : `${list.data.total.toLocaleString('en')} ${list.data.total === 1 ? 'file' : 'files'}${q.trim() ? ` with "${q.trim()}" in the name` : ''}`}
          {!online ? ' Offline: shown as last seen, read-only.' : ''}
        </p>
      ) : null}
      {list.data && list.data.designs.length > 0 ? (
        <ul className="designs__grid" aria-label="Designs">
          {list.data.designs.map((item) => (
            <DesignCard key={item.id} teamId={teamId} item={item} canWrite={canWrite && online} />
          ))}
        </ul>
      ) : null}
      {pages > 1 ? (
        <nav className="actions designs__pages" aria-label="Pages of designs">
          <button type="button" className="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Previous
          </button>
          <span>
            Page {page} of {pages}
          </span>
          <button type="button" className="button" disabled={page >= pages} onClick={() => setPage(page + 1)}>
            Next
          </button>
        </nav>
      ) : null}
    </div>
  );
}
