// How a navigation is shown (docs/behaviour.md, "Navigation guards"): the router (React Router in
// declarative mode, BrowserRouter) follows the address; the page for a new address is shown once
// the navigation guards (./guards.ts) have let it through and the code of its routes is loaded.
// Until then the page before stays on screen (on the first load, the loading overlay), so no page
// ever renders for an address a guard refuses or sends elsewhere.
//
// Written here rather than taken from React Router's data router (createBrowserRouter with
// loaders and `lazy`), which does the same: that router costs every first page load more
// than declarative mode (issue 22 asks for at most 120 KB of JavaScript on the landing
// page), and the app uses nothing else of it.
import { Component, type EffectCallback, type ReactNode, useEffect, useRef, useState } from 'react';
import { type Location, type RouteObject, createPath, matchRoutes, useLocation, useNavigate, useRoutes } from 'react-router';

import { LoadingOverlay } from '@/components/LoadingOverlay';

import { PageNotFound } from './page-not-found';
import { RouteErrorPage } from './routes/error-page';

/** What the guards answer for an address: null to show it, or the path to go to instead. */
export type Verdict = { redirect: string } | null;

/** The guards of a navigation to `url` over `routes`; a throw shows the error page instead. */
export type Guard = (url: URL, routes: RouteObject[]) => Promise<Verdict>;

/** What is on screen: the page for `location`, or the error page of its navigation. */
interface Shown {
  location: Location;
  failed: boolean;
  error?: unknown;
}

interface GuardedRoutesProps {
  routes: RouteObject[];
  guard: Guard;
  /** Called once a navigation's page (or error page) is on screen; may return a clean-up, run when the next navigation starts. */
  onSettled?: (location: Location) => ReturnType<EffectCallback>;
}

/**
 * The page for the router's address, under the guards; rendered inside a router whose updates are
 * not transitions (`useTransitions={false}`): a new address reaches this component, and so cancels
 * the navigation still waiting, before anything else runs.
 */
export function GuardedRoutes({ routes, guard, onSettled }: GuardedRoutesProps) {
  const location = useLocation();
  const navigate = useNavigate();
  const [shown, setShown] = useState<Shown | null>(null);
  // The guards run once per navigation, even where React runs this effect twice (StrictMode):
  // the pending-invites guard looks once a session, and a second run would let the person through.
  // A navigation is its location object: keys repeat (a link to `#main` gets the first entry's).
  const running = useRef<{ location: Location; settling: Promise<Shown | { redirect: string }> } | null>(null);
  useEffect(() => {
    if (running.current?.location !== location) {
      // Only the fragment changed (a skip link): the same page, without the guards.
      const settling =
        shown && !shown.failed && samePage(shown.location, location)
          ? Promise.resolve({ location, failed: false })
          : settle(location, routes, guard);
      running.current = { location, settling };
    }
    // A newer navigation wins: this one's outcome is dropped once the address moved on.
    let current = true;
    void running.current.settling.then((outcome) => {
      if (!current) return;
      if ('redirect' in outcome) void navigate(outcome.redirect, { replace: true });
      else setShown(outcome);
    });
    return () => {
      current = false;
    };
  }, [location, routes, guard, navigate, shown]);

  const settled = shown?.location === location ? shown : null;
  useEffect(() => (settled ? onSettled?.(settled.location) : undefined), [settled, onSettled]);

  if (!shown) return <LoadingOverlay />;
  if (shown.failed) return <RouteErrorPage error={shown.error} />;
  return (
    <RouteErrorBoundary location={shown.location}>
      <ShownRoutes routes={routes} location={shown.location} />
    </RouteErrorBoundary>
  );
}

/** Whether `next` is the page `shown` is, at another fragment. */
function samePage(shown: Location, next: Location): boolean {
  return shown.pathname === next.pathname && shown.search === next.search && shown.hash !== next.hash;
}

/** The routes' pages for `location`, which their hooks (useLocation, useSearchParams) read. */
function ShownRoutes({ routes, location }: { routes: RouteObject[]; location: Location }) {
  return useRoutes(routes, location);
}

/** Runs the guards for `location` and loads its routes' code beside them. */
async function settle(location: Location, routes: RouteObject[], guard: Guard): Promise<Shown | { redirect: string }> {
  const code = Promise.all((matchRoutes(routes, location) ?? []).map(({ route }) => loadCode(route)));
  // A failure matters only if the page is to be shown; it is read below then.
  code.catch(() => {});
  try {
    const verdict = await guard(new URL(createPath(location), window.location.origin), routes);
    if (verdict) return verdict;
    await code;
    return { location, failed: false };
  } catch (error) {
    // Logged once here, not by the error page at each render.
    if (!(error instanceof PageNotFound)) console.error(error);
    return { location, failed: true, error };
  }
}

/**
 * Loads the module of a route's `lazy` (lib/lazy-route.ts) and gives the route its Component, once:
 * a route whose code is in has no `lazy` left (app/prefetch.ts reads that).
 */
async function loadCode(route: RouteObject): Promise<void> {
  if (typeof route.lazy !== 'function') return;
  const { Component } = await route.lazy();
  if (Component) route.Component = Component;
  delete route.lazy;
}

interface RouteErrorBoundaryProps {
  location: Location;
  children: ReactNode;
}

interface RouteErrorBoundaryState {
  location: Location;
  failed: boolean;
  error?: unknown;
}

/**
 * A page that throws while rendering shows the error page in its place (and the layout's); the
 * next navigation shows its own page again. React logs the error (console.error).
 */
class RouteErrorBoundary extends Component<RouteErrorBoundaryProps, RouteErrorBoundaryState> {
  override state: RouteErrorBoundaryState = { location: this.props.location, failed: false };

  static getDerivedStateFromError(error: unknown): Partial<RouteErrorBoundaryState> {
    return { failed: true, error };
  }

  static getDerivedStateFromProps(props: RouteErrorBoundaryProps, state: RouteErrorBoundaryState): Partial<RouteErrorBoundaryState> | null {
    return props.location === state.location ? null : { location: props.location, failed: false, error: undefined };
  }

  override render() {
    return this.state.failed ? <RouteErrorPage error={this.state.error} /> : this.props.children;
  }
}
