import { act, cleanup, render, screen } from '@testing-library/react';
import type { RouteObject } from 'react-router';
import type { Mock } from 'vitest';

import { fakeAuth, resetFakeAuth, signIn } from '@/test/fake-auth';

import { currentSession } from '@/lib/auth';
import { lazyRoute } from '@/lib/lazy-route';

import type { Guard } from './navigation';
import { type GuardedPages, renderGuarded } from './test-navigation';
import { PREFETCH_DELAY_MS, schedulePrefetch } from './prefetch';
import { AppProvider } from './provider';
import { AppRouter } from './router';

// The spec: "Payload prefetch starts after 1 s unless the connection is slow-2g"; the issue adds
// "or the person asked to save data" (docs/behaviour.md, "Page chunks").

vi.mock('@supabase/ssr', async () => (await import('@/test/fake-auth')).fakeSsrModule);

// Which of the app's real route modules were imported, for the test of the app's own router.
const imported = vi.hoisted(() => new Set<string>());
vi.mock('./routes/sign-in', async (original) => {
  imported.add('sign-in');
  return original();
});
vi.mock('./routes/thread-converter', async (original) => {
  imported.add('thread-converter');
  return original();
});

type PageName = 'login' | 'dashboard' | 'inventory' | 'team' | 'calculators';

/** Loaders of test pages, each counting its calls: how often a page's code was fetched. */
function pageLoad(name: PageName) {
  return vi.fn(async () => ({ Component: () => <p>{`The ${name} page`}</p> }));
}

let loads: Record<PageName, ReturnType<typeof pageLoad>>;
/** Stands for the navigation guards: the prefetch must not run them. They run on every navigation, as the app's do. */
let guards: Mock<Guard>;

function testRoutes(): RouteObject[] {
  return [
    {
      path: '/',
      children: [
        { index: true, Component: () => null },
        { path: 'login', lazy: lazyRoute(loads.login) },
        // A pathless layout, as DefaultLayout is in the app.
        {
          children: [
            { path: 'dashboard', lazy: lazyRoute(loads.dashboard) },
            { path: 'inventory', lazy: lazyRoute(loads.inventory) },
            { path: 'team', lazy: lazyRoute(loads.team) },
            { path: 'calculators', lazy: lazyRoute(loads.calculators) },
          ],
        },
      ],
    },
  ];
}

/** Lets the navigation's promises and React's rendering run, the clock standing still. */
async function flush() {
  for (let turn = 0; turn < 5; turn += 1) await act(() => vi.advanceTimersByTimeAsync(0));
}

/**
 * The test routes at `path` under the guards, prefetching as the app does (./router.tsx), their
 * first page shown, with links to `links` on the page. The clock's timeouts are fake from here on.
 */
async function settledAt(path: string, links: string[]): Promise<GuardedPages> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  const linked = document.createElement('nav');
  linked.innerHTML = links.map((href) => `<a href="${href}">${href}</a>`).join('');
  document.body.append(linked);
  const routes = testRoutes();
  const pages = renderGuarded(routes, guards, path, () => schedulePrefetch(routes));
  await flush();
  if (pages.shown?.pathname !== path) throw new Error(`the first page did not settle at ${path}`);
  return pages;
}

function setConnection(connection: { effectiveType?: string; saveData?: boolean } | undefined) {
  Object.defineProperty(navigator, 'connection', { value: connection, configurable: true });
}

beforeEach(async () => {
  resetFakeAuth();
  loads = {
    login: pageLoad('login'),
    dashboard: pageLoad('dashboard'),
    inventory: pageLoad('inventory'),
    team: pageLoad('team'),
    calculators: pageLoad('calculators'),
  };
  guards = vi.fn<Guard>(async () => null);
  imported.clear();
  setConnection({ effectiveType: '4g', saveData: false });
});

afterEach(() => {
  vi.useRealTimers();
  setConnection(undefined);
  document.body.innerHTML = '';
});

/** Signed in, as the login guard leaves someone on a page of the app. */
async function signedIn() {
  signIn();
  await currentSession();
}

describe('payload prefetch', () => {
  const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

  it('loads the code of the pages linked from the page one second after it settles, not before', async () => {
    await signedIn();
    const pages = await settledAt('/dashboard', ['/inventory', '/team?tab=members', 'https://elsewhere.example/calculators']);

    await advance(PREFETCH_DELAY_MS - 1);
    expect(loads.inventory).not.toHaveBeenCalled();
    expect(loads.team).not.toHaveBeenCalled();

    await advance(1);
    expect(loads.inventory).toHaveBeenCalledTimes(1);
    expect(loads.team).toHaveBeenCalledTimes(1);
    // Not linked (another site's link does not count).
    expect(loads.calculators).not.toHaveBeenCalled();
    // Only the code: no guard ran, and the page stayed where it was.
    expect(guards).toHaveBeenCalledTimes(1);
    expect(pages.shown?.pathname).toBe('/dashboard');
  });

  it('counts the second from the end of a navigation, and waits while one is under way', async () => {
    await signedIn();
    const pages = await settledAt('/dashboard', ['/inventory']);
    await advance(PREFETCH_DELAY_MS / 2);

    // A navigation whose guards take 2 s: nothing is prefetched meanwhile, and the page before
    // stays on screen.
    guards.mockImplementationOnce(() => new Promise<null>((resolve) => setTimeout(resolve, 2000, null)));
    await act(async () => {
      await pages.navigate('/team');
    });
    await advance(1999);
    expect(pages.shown?.pathname).toBe('/dashboard');
    expect(screen.getByText('The dashboard page')).toBeTruthy();
    expect(screen.queryByText('The team page')).toBeNull();
    expect(loads.inventory).not.toHaveBeenCalled();

    await advance(1);
    await flush();
    expect(pages.shown?.pathname).toBe('/team');
    expect(screen.getByText('The team page')).toBeTruthy();
    await advance(PREFETCH_DELAY_MS - 1);
    expect(loads.inventory).not.toHaveBeenCalled();
    await advance(1);
    expect(loads.inventory).toHaveBeenCalledTimes(1);
  });

  it("loads each page's code once: prefetched, then visited, then linked again", async () => {
    await signedIn();
    const pages = await settledAt('/dashboard', ['/inventory', '/team', '/dashboard']);
    await advance(PREFETCH_DELAY_MS);
    expect(loads.inventory).toHaveBeenCalledTimes(1);

    // The visit uses the prefetched code rather than fetching it again.
    await act(async () => {
      await pages.navigate('/inventory');
    });
    await flush();
    expect(pages.shown?.pathname).toBe('/inventory');
    expect(screen.getByText('The inventory page')).toBeTruthy();
    // The next page links to the same pages: nothing is fetched twice.
    await advance(PREFETCH_DELAY_MS);
    await act(async () => {
      await pages.navigate('/team');
    });
    await flush();
    await advance(PREFETCH_DELAY_MS);

    expect(pages.shown?.pathname).toBe('/team');
    expect(loads.inventory).toHaveBeenCalledTimes(1);
    expect(loads.team).toHaveBeenCalledTimes(1);
    expect(loads.dashboard).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['on a slow-2g connection', { effectiveType: 'slow-2g' }],
    ['for someone who asked to save data', { effectiveType: '4g', saveData: true }],
  ])('loads nothing ahead %s', async (_, connection) => {
    await signedIn();
    setConnection(connection);
    await settledAt('/dashboard', ['/inventory', '/team']);
    await advance(10 * PREFETCH_DELAY_MS);
    expect(loads.inventory).not.toHaveBeenCalled();
    expect(loads.team).not.toHaveBeenCalled();
  });

  it('loads ahead where the browser does not tell the connection', async () => {
    await signedIn();
    setConnection(undefined);
    await settledAt('/dashboard', ['/inventory']);
    await advance(PREFETCH_DELAY_MS);
    expect(loads.inventory).toHaveBeenCalledTimes(1);
  });

  it('loads for a visitor only the pages they may open, without the auth client', async () => {
    await settledAt('/', ['/login', '/inventory']);
    await advance(PREFETCH_DELAY_MS);
    expect(loads.login).toHaveBeenCalledTimes(1);
    // The login guard would send them to the login page instead.
    expect(loads.inventory).not.toHaveBeenCalled();
    expect(fakeAuth.created).toBe(0);
  });

  it('loads nothing once the pages are gone', async () => {
    await signedIn();
    await settledAt('/dashboard', ['/inventory']);
    cleanup();
    await advance(PREFETCH_DELAY_MS);
    expect(loads.inventory).not.toHaveBeenCalled();
  });
});

describe("the app's router", () => {
  it("prefetches the pages the landing page links to, a visitor's only, a second after it settles", async () => {
    // Only the timeouts are fake: the router's first load and React's rendering run by themselves.
    // Testing Library's async queries wait on a timeout, hence plain queries after act().
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    render(
      <AppProvider config={{ environment: 'production', version: '9.9.9' }}>
        <AppRouter />
      </AppProvider>,
    );
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(screen.getAllByRole('link', { name: 'Log in' })).toHaveLength(2);
    expect(screen.getByRole('link', { name: 'Open the thread converter' })).toBeTruthy();

    await act(() => vi.advanceTimersByTimeAsync(PREFETCH_DELAY_MS - 1));
    expect(imported.has('sign-in')).toBe(false);
    await act(() => vi.advanceTimersByTimeAsync(1));
    await vi.waitFor(() => expect(imported.has('sign-in')).toBe(true));
    // The converter needs a login: a visitor following its link gets the login page.
    expect(imported.has('thread-converter')).toBe(false);
    expect(fakeAuth.created).toBe(0);
  });
});
