// Choosing a design of the team's library for the job: a search over the library's readable
// designs, each with its small preview and stitches; choosing one puts `?design=ID` in the
// address, so a reload (or a link from the design's page) prices the same design.
import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useId, useState } from 'react';
import { Link } from 'react-router';

import { LibraryPreview } from '@/components/LibraryPreview';
import { paths } from '@/config/paths';
import { libraryQueryOptions, summaryOf } from '@/lib/design-library';

import { formatCount } from '../model';

const SHOWN = 12;

export function LibraryPicker({ teamId, onPick }: { teamId: string; onPick: (designId: string) => void }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  const q = useDeferredValue(search);
  const list = useQuery({
    ...libraryQueryOptions(teamId, { q, sort: 'updated', order: 'desc', page: 1, perPage: SHOWN, readable: true }),
    enabled: open && teamId !== '',
  });
  const designs = (list.data?.designs ?? []).filter((item) => summaryOf(item) !== null);
  return (
    <div className="library-picker">
      <button type="button" className="button" aria-expanded={open} aria-controls={`${id}-panel`} onClick={() => setOpen(!open)}>
        {open ? 'Close the library' : 'Choose from the library'}
      </button>
      {open ? (
        <div id={`${id}-panel`} className="library-picker__panel">
          <div className="field">
            <label htmlFor={`${id}-search`}>Search the library</label>
            <input id={`${id}-search`} type="search" value={search} onChange={(event) => setSearch(event.target.value)} />
          </div>
          {list.isPending ? <p role="status">Loading the library…</p> : null}
          {list.isError && !list.data ? <p role="alert">The library could not be loaded.</p> : null}
          {list.data && designs.length === 0 ? (
            <p className="muted">
              {q.trim() ? 'No design in the library has that in its name.' : 'The library has no designs yet.'}{' '}
              <Link to={paths.designs}>Open the library</Link>
            </p>
          ) : null}
          {designs.length > 0 ? (
            <ul className="library-picker__list" aria-label="Designs in the library">
              {designs.map((item) => (
                <li key={item.id}>
                  <button
                    type="button"
                    className="library-picker__item"
                    onClick={() => {
                      setOpen(false);
                      onPick(item.id);
                    }}
                  >
                    <LibraryPreview teamId={teamId} designId={item.id} etag={item.etag} name={item.name} size="sm" />
                    <span className="library-picker__name">{item.name}</span>
                    <span className="muted">{formatCount(summaryOf(item)?.stitches ?? 0)} stitches</span>
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
