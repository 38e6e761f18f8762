// New deployments (docs/behaviour.md, "New deployments"). Each build writes a manifest the server
// serves: `/builds/latest.json` names the newest build, `/builds/meta/{id}.json` holds a build's
// route rules; the page names its own build (`<meta name="bobbin-build">`, app-react/build.mjs).
// The app polls the latest (every 5 minutes, and when the tab comes back into view); once a new
// build is out it offers a reload, and the next navigation is a full page load, which fetches it.
import { type QueryClient, queryOptions } from '@tanstack/react-query';

import type { RouteRule } from '@/config/route-rules';

import { retriedFetch } from './query-client';
import { createMemoryStore } from './store';

/** How often the app asks whether a new build is out (also whenever the tab comes back). */
export const BUILD_POLL_MS = 5 * 60_000;

export interface LatestBuild {
  id: string;
  timestamp: number;
}

export interface BuildMeta extends LatestBuild {
  routes: string[];
  routeRules: Record<string, RouteRule>;
}

/** The build this page was loaded from, or null where the page names none (unit tests). */
export function currentBuildId(): string | null {
  return document.querySelector<HTMLMetaElement>('meta[name="bobbin-build"]')?.content ?? null;
}

/**
 * A newer build than this page's, once the polling has seen one; and whether a service worker of
 * another build is installed and waiting for the person's reload (lib/offline/service-worker.ts).
 */
export const buildState = createMemoryStore<{ newBuild: LatestBuild | null; workerWaiting: boolean }>(() => ({
  newBuild: null,
  workerWaiting: false,
}));

async function fetchJson<T>(path: string, signal: AbortSignal): Promise<T> {
  const response = await fetch(path, { cache: 'no-store', signal });
  if (!response.ok) throw new Error(`${path} answered HTTP ${response.status}`);
  return (await response.json()) as T;
}

/** The latest build, polled; a newer one than this page's goes into `buildState`. */
export const latestBuildQueryOptions = queryOptions({
  queryKey: ['builds', 'latest'],
  queryFn: async ({ signal }) => {
    const latest = await fetchJson<LatestBuild>('/builds/latest.json', signal);
    const current = currentBuildId();
    if (current && latest.id !== current) buildState.setState({ newBuild: latest });
    return latest;
  },
  ...retriedFetch,
  refetchInterval: BUILD_POLL_MS,
  refetchOnWindowFocus: 'always',
  staleTime: 0,
});

/** A build's manifest, which never changes. */
export function buildMetaQueryOptions(id: string) {
  return queryOptions({
    queryKey: ['builds', 'meta', id],
    queryFn: ({ signal }) => fetchJson<BuildMeta>(`/builds/meta/${encodeURIComponent(id)}.json`, signal),
    ...retriedFetch,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });
}

/**
 * The route rules of the newest build this page knows of ({} when it knows none). Fetched once;
 * a manifest that could not be fetched is not asked for again on each navigation: there are no
 * rules until a new build is seen.
 */
export async function routeRules(queryClient: QueryClient): Promise<Record<string, RouteRule>> {
  const id = buildState.getState().newBuild?.id ?? currentBuildId();
  if (!id) return {};
  const options = buildMetaQueryOptions(id);
  if (queryClient.getQueryState(options.queryKey)?.status === 'error') return {};
  try {
    return (await queryClient.query(options)).routeRules;
  } catch (error) {
    console.warn('The build manifest could not be read; no route rules apply:', error);
    return {};
  }
}
