// The thread list's filters and page as the address keeps them (`/inventory/threads?q=navy&low=true`),
// so a reload, the Back button and a shared link all give the same list. What is at its default
// stays out of the address.
import { useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';

import { THREAD_SORTS, type ThreadSort } from './types';

export interface ListFilters {
  q: string;
  /** As typed: `#RRGGBB`, `RRGGBB`, or anything else while it is being typed (then not sent). */
  closest: string;
  line: string;
  fibre: string;
  location: string;
  low: boolean;
  sort: ThreadSort;
  order: 'asc' | 'desc';
  page: number;
}

export const defaultFilters: ListFilters = {
  q: '',
  closest: '',
  line: '',
  fibre: '',
  location: '',
  low: false,
  sort: 'code',
  order: 'asc',
  page: 1,
};

/** `text` as `#RRGGBB` (upper case) when it is a colour, with or without its `#`; else null. */
export function hexOf(text: string): string | null {
  const [, hex] = /^#?([0-9a-f]{6})$/i.exec(text.trim()) ?? [];
  return hex ? `#${hex.toUpperCase()}` : null;
}

/** The filters the address `params` holds; anything it cannot read is left at its default. */
export function readFilters(params: URLSearchParams): ListFilters {
  const text = (name: string) => params.get(name) ?? '';
  const sort = text('sort');
  const page = Number(text('page'));
  return {
    q: text('q'),
    closest: hexOf(text('closest')) ?? '',
    line: text('line'),
    fibre: text('fibre'),
    location: text('location'),
    low: text('low') === 'true',
    sort: (THREAD_SORTS as readonly string[]).includes(sort) ? (sort as ThreadSort) : defaultFilters.sort,
    order: text('order') === 'desc' ? 'desc' : 'asc',
    page: Number.isSafeInteger(page) && page > 1 ? page : 1,
  };
}

/**
 * The address of `filters`: only what differs from the defaults, in a fixed order. The colour
 * goes without its `#` (`closest=1F2A44`), and only once it is one.
 */
export function writeFilters(filters: ListFilters): URLSearchParams {
  const params = new URLSearchParams();
  const closest = hexOf(filters.closest);
  if (filters.q !== '') params.set('q', filters.q);
  if (closest) params.set('closest', closest.slice(1));
  if (filters.line !== '') params.set('line', filters.line);
  if (filters.fibre !== '') params.set('fibre', filters.fibre);
  if (filters.location !== '') params.set('location', filters.location);
  if (filters.low) params.set('low', 'true');
  if (filters.sort !== defaultFilters.sort) params.set('sort', filters.sort);
  if (filters.order !== defaultFilters.order) params.set('order', filters.order);
  if (filters.page !== 1) params.set('page', String(filters.page));
  return params;
}

/**
 * The thread list's filters, kept in the address: `filters` as they stand, and `change` to
 * change some of them (any change but a new page starts again at page 1).
 */
export function useThreadFilters() {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  // In state as well as the address: the address changes once the navigation's guards are done
  // (app/navigation.tsx), and what is typed must show at once.
  const [filters, setFilters] = useState(() => readFilters(params));
  const address = params.toString();
  // Each address this page writes carries a number in its history entry's state, and the numbers
  // the router has yet to show are pending: typing writes one a key, and they show one after
  // another, each older than what the state holds. Any other new address (Back, Forward, a link,
  // an entry this page wrote earlier) is where the filters must follow, in the render that sees
  // it (not in an effect a render later).
  // A navigation is its key with its query: the location object is made anew at each render, and
  // the first entry's key comes again for a link to a fragment.
  const navigation = `${location.key} ${location.search}`;
  const [seen, setSeen] = useState({ navigation, pending: [] as number[] });
  if (seen.navigation !== navigation) {
    const own = writeOf(location.state);
    const mine = own !== null && seen.pending.includes(own);
    setSeen({ navigation, pending: mine ? seen.pending.filter((write) => write > own) : [] });
    if (!mine) {
      setFilters((current) => (writeFilters(current).toString() === address ? current : readFilters(new URLSearchParams(address))));
    }
  }

  /** Writes `next` to the state and the address. Any change of the filters starts again at the first page. */
  const change = (next: Partial<ListFilters>) => {
    const merged = { ...filters, page: 1, ...next };
    setFilters(merged);
    lastWrite += 1;
    const write = lastWrite;
    setSeen((current) => ({ ...current, pending: [...current.pending, write] }));
    // Typing replaces the entry; a new page is one of its own, so Back returns to the last page.
    setParams(writeFilters(merged), { replace: next.page === undefined, state: { [WRITE_KEY]: write } });
  };

  return { filters, change };
}

/** Where the thread list marks the history entries it writes. */
const WRITE_KEY = 'bobbin:thread-filters';

/** The number of the last write: counted for the whole page load, so an entry an earlier visit to the list wrote is never taken for this one's. */
let lastWrite = 0;

/** The number this page wrote into a history entry's state, if it wrote it. */
function writeOf(state: unknown): number | null {
  if (typeof state !== 'object' || state === null || !(WRITE_KEY in state)) return null;
  const write = (state as Record<string, unknown>)[WRITE_KEY];
  return typeof write === 'number' ? write : null;
}
