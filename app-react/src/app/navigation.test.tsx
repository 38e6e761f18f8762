import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RouteObject } from 'react-router';

import { useThreadFilters } from '@/features/inventory/thread-filters';

import type { Guard } from './navigation';
import { type GuardedPages, renderGuarded } from './test-navigation';

// docs/behaviour.md, "Navigation guards": on every navigation the guards run before any page
// loads; the page before stays until they let the new address through.

/** The thread list's search box and its next page, as the list's filters keep them. */
function Search() {
  const { filters, change } = useThreadFilters();
  return (
    <>
      <input type="search" aria-label="Search" value={filters.q} onChange={(event) => change({ q: event.target.value })} />
      <button type="button" onClick={() => change({ page: filters.page + 1 })}>
        Next page
      </button>
    </>
  );
}

/** A page that says which it is. */
const page = (name: string) => <p>{`The ${name} page`}</p>;

const routes = (): RouteObject[] => [
  { path: '/a', element: page('a') },
  { path: '/b', element: page('b') },
  { path: '/c', element: page('c') },
];

/** Guards that let each address through after `ms[pathname]` milliseconds (at once if not listed). */
const taking =
  (ms: Record<string, number>): Guard =>
  (url) =>
    new Promise((resolve) => setTimeout(resolve, ms[url.pathname] ?? 0, null));

async function go(pages: GuardedPages, to: string | number) {
  await act(async () => {
    await (typeof to === 'number' ? pages.navigate(to) : pages.navigate(to));
  });
}

describe('a navigation', () => {
  it('shows the loading overlay until the first page is let through, then the page', async () => {
    renderGuarded(routes(), taking({ '/a': 50 }), '/a');
    expect(screen.queryByText('The a page')).toBeNull();
    expect(await screen.findByText('The a page')).toBeTruthy();
  });

  it('leaves the page before on screen while the guards run, and a newer navigation wins over one still waiting', async () => {
    const pages = renderGuarded(routes(), taking({ '/b': 80 }), '/a');
    expect(await screen.findByText('The a page')).toBeTruthy();

    await go(pages, '/b');
    expect(screen.getByText('The a page')).toBeTruthy();
    // Before /b's guards are done, the person goes on to /c: /b never shows, even once let through.
    await go(pages, '/c');
    expect(await screen.findByText('The c page')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(screen.getByText('The c page')).toBeTruthy();
    expect(screen.queryByText('The b page')).toBeNull();
    expect(pages.shown?.pathname).toBe('/c');
  });

  it('shows another fragment of the page on screen without the guards (a skip link)', async () => {
    const guard = vi.fn<Guard>(async () => null);
    const pages = renderGuarded(routes(), guard, '/a');
    expect(await screen.findByText('The a page')).toBeTruthy();
    await go(pages, '/a#main');
    await waitFor(() => expect(pages.shown?.hash).toBe('#main'));
    expect(screen.getByText('The a page')).toBeTruthy();
    expect(guard).toHaveBeenCalledTimes(1);
    // The same address again is a navigation: the guards run.
    await go(pages, '/a#main');
    await waitFor(() => expect(guard).toHaveBeenCalledTimes(2));
  });

  it('replaces an address a guard sends elsewhere: Back returns to the page before', async () => {
    const pages = renderGuarded(routes(), async (url) => (url.pathname === '/b' ? { redirect: '/c' } : null), '/a');
    expect(await screen.findByText('The a page')).toBeTruthy();
    await go(pages, '/b');
    expect(await screen.findByText('The c page')).toBeTruthy();
    await go(pages, -1);
    expect(await screen.findByText('The a page')).toBeTruthy();
  });

  it("loads a page's code before showing it, and shows the error page where it cannot", async () => {
    const code = vi.fn(async () => ({ Component: () => page('lazy') }));
    const broken = vi.fn(() => Promise.reject(new Error('chunk gone')));
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const pages = renderGuarded([...routes(), { path: '/lazy', lazy: code }, { path: '/broken', lazy: broken }], async () => null, '/a');
    expect(await screen.findByText('The a page')).toBeTruthy();
    expect(code).not.toHaveBeenCalled();

    await go(pages, '/lazy');
    expect(await screen.findByText('The lazy page')).toBeTruthy();
    await go(pages, '/a');
    await go(pages, '/lazy');
    expect(await screen.findByText('The lazy page')).toBeTruthy();
    expect(code).toHaveBeenCalledTimes(1);

    await go(pages, '/broken');
    expect(await screen.findByRole('heading', { name: 'Internal Server Error' })).toBeTruthy();
    await waitFor(() => expect(consoleError).toHaveBeenCalledWith(new Error('chunk gone')));
    consoleError.mockRestore();
  });

  // The thread list's filters (features/inventory/thread-filters.ts), written to the address as
  // they are typed. The guards' time, against a key's: settled at once, in the next task, or after 30 ms. The
  // addresses typed then show one after another, some while the box already holds more.
  it.each([
    ['at once', () => Promise.resolve(null), null],
    ['in the next task', () => new Promise<null>((resolve) => setTimeout(resolve, 0, null)), 0],
    ['in the next task, a key a millisecond', () => new Promise<null>((resolve) => setTimeout(resolve, 0, null)), 1],
    ['after 30 ms', () => new Promise<null>((resolve) => setTimeout(resolve, 30, null)), 0],
  ])('keeps what is typed while the address follows behind, each navigation waiting for its guards (%s)', async (_, guard, delay) => {
    const pages = renderGuarded([{ path: '/inventory/threads', element: <Search /> }], guard, '/inventory/threads');
    const box = await screen.findByRole<HTMLInputElement>('searchbox', { name: 'Search' });
    await userEvent.setup({ delay }).type(box, 'navy blue');
    expect(box.value).toBe('navy blue');
    await waitFor(() => expect(pages.shown?.search).toBe('?q=navy+blue'));
    expect(box.value).toBe('navy blue');
  });

  it('follows Back to an address the filters wrote before what was typed since', async () => {
    const guard = () => new Promise<null>((resolve) => setTimeout(resolve, 30, null));
    const pages = renderGuarded([{ path: '/inventory/threads', element: <Search /> }], guard, '/inventory/threads');
    const box = await screen.findByRole<HTMLInputElement>('searchbox', { name: 'Search' });
    const user = userEvent.setup();
    // The first entry, then the next page as an entry of its own, then typing in place of it.
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(pages.shown?.search).toBe('?page=2'));
    await user.type(box, 'a');
    await waitFor(() => expect(pages.shown?.search).toBe('?q=a'));
    // Cleared and typed again before the cleared address shows: it never does.
    await user.type(box, '{Backspace}a');
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(pages.shown?.search).toBe('?q=a');
    expect(box.value).toBe('a');

    // Back to the first entry, whose address has no search: the box follows it.
    await go(pages, -1);
    await waitFor(() => expect(pages.shown?.search).toBe(''));
    expect(box.value).toBe('');
  });
});
