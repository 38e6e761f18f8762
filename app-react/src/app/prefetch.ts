// Payload prefetch (docs/behaviour.md, "Page chunks"): one second after a page settles, the code
// of the pages it links to is loaded, so following a link does not wait for it; not on a slow-2g
// connection, nor for someone who asked to save data.
//
// Written by hand: React Router's <Link prefetch> works in framework mode only, and its data
// router has no call that loads a route's code alone (router.fetch() would run the loaders, the
// navigation guards among them). So the page's links are matched against the router's routes and
// each match's module is imported through lazyRoute's preloadRoute(), which the router's own
// `lazy` call then shares. Only code: data ahead would be API calls, which show the loading bar.
import { type DataRouter, type RouterState, matchRoutes } from 'react-router';

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

/** Prefetches for the pages `router` shows, from now on; returns the stop. */
export function startPrefetch(router: DataRouter): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const schedule = (state: RouterState) => {
    clearTimeout(timer);
    // Settled: the first load done, and no navigation or revalidation under way.
    if (state.initialized && state.navigation.state === 'idle' && state.revalidation === 'idle') {
      timer = setTimeout(() => prefetchLinks(router), PREFETCH_DELAY_MS);
    }
  };
  schedule(router.state);
  const unsubscribe = router.subscribe(schedule);
  return () => {
    clearTimeout(timer);
    unsubscribe();
  };
}

function prefetchLinks(router: DataRouter): void {
  if (!connectionAllows()) return;
  // Read from the store: asking the auth client would load it for a visitor.
  const signedIn = getAuthState().status === 'signed-in';
  for (const link of document.links) {
    // This app's pages only (a link's `origin` is empty where its address does not parse, on
    // which new URL() would throw), and for a visitor only those the login guard lets them open.
    if (link.origin !== window.location.origin) continue;
    const url = new URL(link.href);
    if (loginRedirect(url, signedIn) !== null) continue;
    // A page already visited has no `lazy` left: the router drops it once the module is in.
    for (const { route } of matchRoutes(router.routes, url.pathname, router.basename) ?? []) preloadRoute(route.lazy);
  }
}
