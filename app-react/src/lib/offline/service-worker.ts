// The service worker's registration and updates (docs/behaviour.md, "Offline" and "New
// deployments"). The worker (app-react/service-worker/sw.ts, served at /sw.js) precaches this
// build; it is registered once the page has loaded and is idle, so its downloads never compete
// with the page's own. A new build's worker installs (when the browser checks /sw.js, and as soon
// as the polled build manifest names a new build), then waits: the app offers a reload
// (components/NewBuildNotice.tsx) and only the person's "Reload" lets it take over.
// workbox-window does the talking to the worker. It is a chunk of its own, loaded when the worker
// is registered (the page loaded and idle), so the first load does without it; should that chunk
// fail to load (a deployment meanwhile), this page goes without a worker, as when registering
// fails, and the next page load tries again.
import type { Workbox } from 'workbox-window';

import { buildState, currentBuildId } from '../builds';

let registration: Promise<Workbox | null> | undefined;

function whenIdle(task: () => void): void {
  const idle = () => (typeof requestIdleCallback === 'function' ? requestIdleCallback(task, { timeout: 5000 }) : setTimeout(task, 1000));
  if (document.readyState === 'complete') idle();
  else window.addEventListener('load', idle, { once: true });
}

/** Registers the worker once per page, after the load, when the browser is idle. */
export function registerServiceWorker(): void {
  // A page that names no build (unit tests, a placeholder build) has nothing to precache.
  if (registration || !('serviceWorker' in navigator) || currentBuildId() === null) return;
  registration = new Promise<Workbox | null>((resolve) => {
    whenIdle(() => {
      import('workbox-window')
        .then(async ({ Workbox }) => {
          const workbox = new Workbox('/sw.js');
          workbox.addEventListener('waiting', () => void takeOrOffer(workbox));
          await workbox.register();
          resolve(workbox);
        })
        .catch((error: unknown) => {
          console.warn('The service worker could not be registered; Bobbin will not open offline:', error);
          resolve(null);
        });
    });
  });
}

/**
 * A worker is waiting. One that holds this page's own build (the page came from the network, the
 * worker was installing it meanwhile) takes over at once: nothing changes on screen. Another build
 * waits for the person's reload.
 */
async function takeOrOffer(workbox: Workbox): Promise<void> {
  const answer: unknown = await workbox.messageSW({ type: 'GET_BUILD' }).catch(() => null);
  const build = answer && typeof answer === 'object' && 'build' in answer ? answer.build : null;
  if (build !== null && build === currentBuildId()) workbox.messageSkipWaiting();
  else buildState.setState({ workerWaiting: true });
}

/** The build manifest names a new build: the browser fetches the new worker now, not in a day. */
export async function checkForUpdate(): Promise<void> {
  await (await registration)?.update();
}

/**
 * The person's "Reload": a waiting worker takes over first (its build's files are ready), then the
 * page loads again. Without one, a plain reload (the page comes from the network).
 */
export async function reloadIntoNewBuild(): Promise<void> {
  const workbox = await registration;
  if (workbox && buildState.getState().workerWaiting) {
    workbox.addEventListener('controlling', () => window.location.reload());
    workbox.messageSkipWaiting();
    // Should the worker never say it took over, the reload happens anyway.
    setTimeout(() => window.location.reload(), 3000);
    return;
  }
  window.location.reload();
}
