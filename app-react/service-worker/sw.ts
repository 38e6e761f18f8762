// Bobbin's service worker (docs/behaviour.md, "Offline"): after one visit online, every page of
// the app opens without a connection. app-react/build.mjs bundles this file into /sw.js with the
// build's precache list: the page shell (`/`), every file of `dist/assets/` (route code, styles,
// fonts, the WebAssembly core, the thread catalogue) and the build's manifest. Workbox keeps one
// precache per build: a new build's worker fetches its own files, then waits until the page
// accepts the update (its "Reload"); the old build's files go when the new worker takes over.
//
// Only these files and the icons are ever answered from a cache. The product API (/api), the auth
// service (/auth), the development pages (/dev) and the widget (/widget) always go to the network:
// the data the app shows offline is kept by the page itself, per person (src/lib/offline/).
import { type WorkboxPlugin, clientsClaim } from 'workbox-core';
import { ExpirationPlugin } from 'workbox-expiration';
import { type PrecacheEntry, cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { registerRoute } from 'workbox-routing';
import { NetworkOnly, StaleWhileRevalidate } from 'workbox-strategies';

declare const self: ServiceWorkerGlobalScope & {
  /** Written by build.mjs: the files of this build. */
  __WB_MANIFEST: PrecacheEntry[];
};
/** Written by build.mjs: the build this worker precaches (`<meta name="bobbin-build">`). */
declare const BOBBIN_BUILD: string;
/** Written by build.mjs: the app's page routes and the route rules' old paths (React Router's patterns). */
declare const BOBBIN_PAGES: string[];

/** The page shell every page path is answered with offline. */
const SHELL = '/';
/** Never answered from a cache, not even a navigation. */
const NETWORK_ONLY = /^\/(api|auth|dev|widget)(\/|$)/;

/** `/inventory/threads/:threadId` as a regular expression matching its paths. */
function patternOf(route: string): RegExp {
  const segments = route.split('/').map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${segments.join('/')}/?$`);
}
const pages = BOBBIN_PAGES.map(patternOf);
const isPage = (path: string) => !NETWORK_ONLY.test(path) && pages.some((page) => page.test(path));

// Page loads go to the network first: the server's page carries its runtime configuration and
// answers 404 for what is no page. Without a connection (or none within 5 seconds), the build's
// shell answers, and the app routes on the page itself. Registered before the precache's own
// route, so `/` too is asked of the network first.
registerRoute(
  ({ request, url }) => request.mode === 'navigate' && url.origin === self.location.origin && isPage(url.pathname),
  new NetworkOnly({
    networkTimeoutSeconds: 5,
    plugins: [{ handlerDidError: async () => (await matchPrecache(SHELL)) ?? Response.error() }],
  }),
);

precacheAndRoute(self.__WB_MANIFEST, {
  // The shell is asked for by its path alone; `/index.html` is no URL of this server.
  directoryIndex: '',
  cleanURLs: false,
});
cleanupOutdatedCaches();

// Icons (`/icons/lucide/{name}.svg`) are fetched one by one as pages show them: kept once seen.
registerRoute(
  ({ url }) => url.origin === self.location.origin && url.pathname.startsWith('/icons/'),
  // Workbox's plugin types predate exactOptionalPropertyTypes, hence the cast.
  new StaleWhileRevalidate({ cacheName: 'bobbin-icons', plugins: [new ExpirationPlugin({ maxEntries: 300 }) as WorkboxPlugin] }),
);

// The first worker takes over the page that installed it, so that page's next route code comes
// from the precache too. A later one waits for the page's word (src/lib/offline/updates.ts).
clientsClaim();
self.addEventListener('message', (event) => {
  const data: unknown = event.data;
  if (!data || typeof data !== 'object' || !('type' in data)) return;
  if (data.type === 'SKIP_WAITING') void self.skipWaiting();
  // workbox-window's messageSW: the page asks which build this worker holds.
  if (data.type === 'GET_BUILD') event.ports[0]?.postMessage({ build: BOBBIN_BUILD });
});
