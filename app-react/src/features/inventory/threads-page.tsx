import { useDeferredValue, useId, useState } from 'react';
import { Link } from 'react-router';

import { LoadingStatus } from '@/components/LoadingStatus';
import { FormAlert } from '@/components/form';
import { pageTitle, paths } from '@/config/paths';

import { exportCsvUrl } from './api/export-threads';
import { fibresOf, useCatalogueLines } from './api/get-catalogue-lines';
import { useThreads } from './api/get-threads';
import { AddMany } from './components/AddMany';
import { AddThread } from './components/AddThread';
import { ClosestColour } from './components/ClosestColour';
import { LineOptions, SelectField, TextField } from './components/Field';
import { ImportCsv } from './components/ImportCsv';
import { ThreadList } from './components/ThreadList';
import { problemsOf } from './errors';
import { defaultFilters, hexOf, useThreadFilters } from './thread-filters';
import { type InventoryAccess, type ThreadFilters, type ThreadSort, fibreLabel } from './types';

export const PER_PAGE = 50;

const sorts: Record<ThreadSort, string> = {
  code: 'Code',
  name: 'Name',
  quantity: 'Quantity',
  location: 'Location',
  updated: 'Last changed',
};

/** "51–100 of 240": which entries a page shows. */
export function pageRange(page: number, perPage: number, shown: number, total: number): string {
  if (total === 0 || shown === 0) return `0 of ${total}`;
  const first = (page - 1) * perPage + 1;
  return `${first}–${first + shown - 1} of ${total}`;
}

/**
 * `/inventory/threads`: the team's threads, searched, filtered, sorted and paged; quantities
 * changed in one tap; threads added one at a time, many at once or from a CSV file; the list
 * exported, and a way to the shopping list. Viewers see it all without the controls that change it.
 * `preferredLine`: the team's preferred line ('' for none), where adding starts.
 */
export function ThreadsPage({ teamId, canWrite, preferredLine = '' }: InventoryAccess & { preferredLine?: string }) {
  const id = useId();
  const { filters, change } = useThreadFilters();
  const lines = useCatalogueLines();
  // Typing does not send a request per key: the list follows when React has time.
  const search = useDeferredValue(filters.q.trim());
  const place = useDeferredValue(filters.location.trim());
  // A colour half typed is not sent: the list stays as the last colour left it. Deferred, like
  // the search: while the picker is dragged, React may skip the colours passed over.
  const typedColour = filters.closest.trim();
  const typedHex = hexOf(typedColour);
  const [colour, setColour] = useState(typedHex);
  if ((typedHex !== null || typedColour === '') && typedHex !== colour) setColour(typedHex);
  const nearest = useDeferredValue(colour);
  const [colourChecked, setColourChecked] = useState(false);
  const colourError = colourChecked && typedColour !== '' && !typedHex ? 'Give the colour as #RRGGBB, e.g. #1F2A44.' : null;
  const { line, fibre, low, sort, order, page } = filters;
  const query: ThreadFilters = {
    q: search,
    closest: nearest ?? '',
    line,
    fibre,
    location: place,
    low,
    sort,
    order,
    page,
    per_page: PER_PAGE,
  };
  const threads = useThreads(teamId, query, typedColour === '' || typedHex !== null);
  const fibres = fibresOf(lines.data ?? []);
  // A fibre from a shared link stays choosable before the lines have loaded.
  if (fibre !== '' && !fibres.includes(fibre)) fibres.push(fibre);

  // The filters beyond the search in use, counted on the phone's Filters button.
  const active = [
    line,
    fibre,
    filters.location.trim(),
    typedColour,
    low,
    sort !== defaultFilters.sort,
    order !== defaultFilters.order,
  ].filter(Boolean).length;
  const [moreOpen, setMoreOpen] = useState(false);

  const data = threads.data;
  const lastPage = data ? Math.max(1, Math.ceil(data.total / data.per_page)) : 1;
  return (
    <div className="inventory">
      <title>{pageTitle('Thread Inventory')}</title>
      <h1>Thread Inventory</h1>
      <div className="actions">
        <a className="button" href={exportCsvUrl(teamId)} download>
          Export CSV
        </a>
        <Link className="button" to={paths.inventoryShoppingList}>
          Shopping list
        </Link>
      </div>
      <div role="search">
        <form
          className="inventory-filters"
          onSubmit={(event) => {
            event.preventDefault();
            setColourChecked(true);
          }}
          aria-label="Find threads"
        >
          <TextField
            id={`${id}-q`}
            label="Search"
            type="search"
            hint="Code, name, location, a colour such as red or blue, or #RRGGBB."
            value={filters.q}
            onChange={(e) => change({ q: e.target.value })}
          />
          {/* On a phone the other filters wait behind one button, so the threads come first;
              on a wider screen they are always shown and the button is not (style/components.css). */}
          <button
            type="button"
            className="button inventory-filters__toggle"
            aria-expanded={moreOpen}
            aria-controls={`${id}-more`}
            onClick={() => setMoreOpen(!moreOpen)}
          >
            {active === 0 ? 'Filters' : `Filters (${active})`}
          </button>
          <div id={`${id}-more`} className="inventory-filters__more" data-open={moreOpen || undefined}>
            <SelectField id={`${id}-line`} label="Line" value={line} onChange={(e) => change({ line: e.target.value })}>
              <option value="">All lines</option>
              <LineOptions lines={lines.data} />
            </SelectField>
            <SelectField id={`${id}-fibre`} label="Fibre" value={fibre} onChange={(e) => change({ fibre: e.target.value })}>
              <option value="">All fibres</option>
              {fibres.map((entry) => (
                <option key={entry} value={entry}>
                  {fibreLabel(entry)}
                </option>
              ))}
            </SelectField>
            <TextField
              id={`${id}-location`}
              label="Location"
              value={filters.location}
              onChange={(e) => change({ location: e.target.value })}
            />
            <ClosestColour
              id={`${id}-closest`}
              value={filters.closest}
              error={colourError}
              onChange={(value) => {
                if (value === '' || hexOf(value)) setColourChecked(false);
                change({ closest: value });
              }}
              onBlur={() => setColourChecked(true)}
            />
            <SelectField
              id={`${id}-sort`}
              label="Sort by"
              value={sort}
              disabled={nearest !== null}
              {...(nearest !== null ? { hint: 'Nearest colour first.' } : {})}
              onChange={(e) => change({ sort: e.target.value as ThreadSort })}
            >
              {Object.entries(sorts).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </SelectField>
            <SelectField
              id={`${id}-order`}
              label="Order"
              value={order}
              disabled={nearest !== null}
              onChange={(e) => change({ order: e.target.value as 'asc' | 'desc' })}
            >
              <option value="asc">Ascending</option>
              <option value="desc">Descending</option>
            </SelectField>
            <label className="check">
              <input type="checkbox" checked={low} onChange={(e) => change({ low: e.target.checked })} /> Low stock only
            </label>
          </div>
        </form>
      </div>
      {threads.isError ? <FormAlert message={problemsOf(threads.error, [], 'The threads could not be loaded.').alert} /> : null}
      {data ? (
        data.total === 0 ? (
          <p>
            {search || nearest || line || fibre || place || low
              ? 'No thread matches these filters.'
              : 'No threads yet. Add the first below.'}
          </p>
        ) : (
          <>
            <ThreadList teamId={teamId} threads={data.threads} canWrite={canWrite} />
            <nav className="actions" aria-label="Pages">
              <button type="button" className="button" disabled={page <= 1} onClick={() => change({ page: page - 1 })}>
                Previous
              </button>
              <span role="status">{pageRange(data.page, data.per_page, data.threads.length, data.total)}</span>
              <button type="button" className="button" disabled={page >= lastPage} onClick={() => change({ page: page + 1 })}>
                Next
              </button>
            </nav>
          </>
        )
      ) : teamId ? (
        <LoadingStatus query={threads}>Loading threads…</LoadingStatus>
      ) : null}
      {canWrite ? (
        <>
          <AddThread teamId={teamId} preferredLine={preferredLine} />
          <AddMany teamId={teamId} preferredLine={preferredLine} />
          <ImportCsv teamId={teamId} />
        </>
      ) : (
        <p className="muted">Viewers see the inventory; members and above change it.</p>
      )}
    </div>
  );
}
