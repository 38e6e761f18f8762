// Payload prefetch (docs/behaviour.md, "Page chunks"): one second after a page settles, the code
// of the pages it links to is loaded, so following a link does not wait for it; not on a slow-2g
// connection, nor for someone who asked to save data.
//
// Written by hand: React Router's <Link prefetch> works in framework mode only. So the page's
// links are matched against the app's routes and each match's module is imported through
// lazyRoute's preloadRoute(), which the navigation's own load of the route's code then shares
// (./navigation.tsx). Only code: no guard runs, and data ahead would be API calls, which show the
// loading bar.
import { type RouteObject, matchRoutes } from 'react-router';

import { getAuthState } from '@/lib/auth';
import { preloadRoute } from '@/lib/lazy-route';

import { loginRedirect } from './guards';

export const PREFETCH_DELAY_MS = 1000;

/** What the prefetch reads of the Network Information API (Chromium), which TypeScript's DOM types lack. */
interface NetworkInformation {
  effectiveType?: string;
  saveData?: boolean;
}

function connectionAllows(): boolean {
  const { connection } = navigator as Navigator & { connection?: NetworkInformation };
  return connection?.effectiveType !== 'slow-2g' && connection?.saveData !== true;
}

/**
 * Prefetches for the page now on screen, a second from now (./navigation.tsx calls it once a
 * navigation settles); returns the stop, for when the next navigation starts first.
 */
export function schedulePrefetch(routes: RouteObject[]): () => void {
  const timer = setTimeout(() => prefetchLinks(routes), PREFETCH_DELAY_MS);
  return () => clearTimeout(timer);
}

function prefetchLinks(routes: RouteObject[]): void {
  if (!connectionAllows()) return;
  // Read from the store: asking the auth client would load it for a visitor.
  const signedIn = getAuthState().status === 'signed-in';
  for (const link of document.links) {
    // This app's pages only (a link's `origin` is empty where its address does not parse, on
    // which new URL() would throw), and for a visitor only those the login guard lets them open.
    if (link.origin !== window.location.origin) continue;
    const url = new URL(link.href);
    if (loginRedirect(url, signedIn) !== null) continue;
    // A page already visited has no `lazy` left: its code is in.
    for (const { route } of matchRoutes(routes, url.pathname) ?? []) preloadRoute(route.lazy);
  }
}
