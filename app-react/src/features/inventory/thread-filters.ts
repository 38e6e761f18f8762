// The thread list's filters and page as the address keeps them (`/inventory/threads?q=navy&low=true`),
// so a reload, the Back button and a shared link all give the same list. What is at its default
// stays out of the address.
import { useState } from 'react';
import { useSearchParams } from 'react-router';

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
  // In state as well as the address: the address changes once the navigation's guards are done
  // (app/navigation.tsx), and what is typed must show at once.
  const [filters, setFilters] = useState(() => readFilters(params));
  const address = params.toString();
  // The addresses this page wrote that the router has yet to show: typing writes one a key, and
  // they show one after another, each older than what the state holds. Any other new address
  // (Back, Forward, a link) is where the filters must follow, in the render that sees it (not in
  // an effect a render later).
  const [seen, setSeen] = useState({ address, written: [] as string[] });
  if (seen.address !== address) {
    const own = seen.written.indexOf(address);
    setSeen({ address, written: own >= 0 ? seen.written.slice(own + 1) : [] });
    if (own < 0) {
      setFilters((current) => (writeFilters(current).toString() === address ? current : readFilters(new URLSearchParams(address))));
    }
  }

  /** Writes `next` to the state and the address. Any change of the filters starts again at the first page. */
  const change = (next: Partial<ListFilters>) => {
    const merged = { ...filters, page: 1, ...next };
    setFilters(merged);
    const written = writeFilters(merged);
    if (written.toString() !== address) setSeen((current) => ({ ...current, written: [...current.written, written.toString()] }));
    // Typing replaces the entry; a new page is one of its own, so Back returns to the last page.
    setParams(written, { replace: next.page === undefined });
  };

  return { filters, change };
}
