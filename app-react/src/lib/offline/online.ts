// Whether Bobbin can reach its server (docs/behaviour.md, "Offline"). TanStack Query's
// onlineManager decides when reads refetch and when kept writes are sent. It is online when the
// browser says it has a connection (`navigator.onLine` and its `online`/`offline` events, from the
// page's first moment: a page opened without a connection starts offline, so its writes are kept,
// not failed) and the server answered the last call. A call that gets no answer at all (the
// workroom's Wi-Fi is up but its internet is not, or the server is down) counts as offline too:
// `serverUnreachable` is told by the API client, and the server's `/healthz` is then asked after
// each of `CHECK_DELAYS_MS` (then every 10 s) until it answers.
// Coming back online waits for `beforeGoingOnline`'s task first (the session's refresh: kept
// writes must not be sent with an access token that expired meanwhile).
import { onlineManager } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';

/** The waits before each check for a server that did not answer: the spec's reconnect delays. */
export const CHECK_DELAYS_MS = [1_000, 2_000, 5_000, 10_000];
/** What is asked: the server's health, answered by the server itself (never by a cache). */
export const CHECK_PATH = '/healthz';

let beforeOnline: () => Promise<unknown> = () => Promise.resolve();

/** What must be done before the app counts as online again; answers the unregistering. */
export function beforeGoingOnline(task: () => Promise<unknown>): () => void {
  beforeOnline = task;
  return () => {
    if (beforeOnline === task) beforeOnline = () => Promise.resolve();
  };
}

/** Whether the server answered the last call (until a call gets no answer, it is presumed to). */
let reachable = true;
let checks = 0;
let nextCheck: ReturnType<typeof setTimeout> | undefined;
/** Sets the data cache online or not (onlineManager's listener); unset until `followConnection`. */
let setOnline: ((online: boolean) => void) | undefined;

/** Whether a call made now could reach the server, as far as the app knows. */
function connected(): boolean {
  return navigator.onLine && reachable;
}

/** Tells the data cache: offline at once; online only once `beforeOnline`'s task is done. */
function update(): void {
  if (!setOnline) return;
  if (!connected()) {
    setOnline(false);
    return;
  }
  const set = setOnline;
  beforeOnline()
    .catch((error: unknown) => console.warn('Back online, but the session could not be refreshed:', error))
    .finally(() => set(connected()));
}

/** A call got no answer: the app is offline until the server answers a check. */
export function serverUnreachable(): void {
  if (!reachable) return;
  reachable = false;
  checks = 0;
  update();
  scheduleCheck();
}

function scheduleCheck(): void {
  clearTimeout(nextCheck);
  const delay = CHECK_DELAYS_MS[Math.min(checks, CHECK_DELAYS_MS.length - 1)];
  checks += 1;
  nextCheck = setTimeout(() => void checkServer(), delay);
}

/** Asks the server whether it is there; any answer from it brings the app back online. */
async function checkServer(): Promise<void> {
  if (reachable) return;
  // Without a connection, the browser's `online` event starts the checks again.
  if (!navigator.onLine) return;
  const answered = await fetch(CHECK_PATH, { cache: 'no-store' }).then(
    (response) => !isGatewayFailure(response),
    () => false,
  );
  if (answered) serverAnswered();
  else scheduleCheck();
}

/** The server answered (a call or a check): back online, if it was not. */
export function serverAnswered(): void {
  if (reachable) return;
  reachable = true;
  clearTimeout(nextCheck);
  update();
}

/**
 * A proxy's answer for a server behind it that is down (502, 503 or 504 with a page of its own):
 * not an answer from Bobbin. Bobbin's own errors are JSON.
 */
export function isGatewayFailure(response: Response): boolean {
  return [502, 503, 504].includes(response.status) && !response.headers.get('content-type')?.includes('json');
}

/**
 * `fetch` that tells the connection what it met: no answer, or a proxy's gateway failure, makes the
 * app offline; any answer of the server brings it back. The API client and the auth client call
 * the server through it.
 */
export async function watchedFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(input, init);
  } catch (error) {
    // A TypeError is "no answer"; an abort is the caller's.
    if (error instanceof TypeError) serverUnreachable();
    throw error;
  }
  if (isGatewayFailure(response)) serverUnreachable();
  else serverAnswered();
  return response;
}

let following = false;

/** Makes the data cache follow the connection. Once per page. */
export function followConnection(): void {
  if (following || typeof window === 'undefined') return;
  following = true;
  onlineManager.setEventListener((set) => {
    setOnline = set;
    const browserChanged = () => {
      // A connection again: the server may be back too, and is asked at once.
      checks = 0;
      void checkServer();
      update();
    };
    set(connected());
    window.addEventListener('online', browserChanged);
    window.addEventListener('offline', browserChanged);
    return () => {
      setOnline = undefined;
      window.removeEventListener('online', browserChanged);
      window.removeEventListener('offline', browserChanged);
    };
  });
}

/** Whether the app is offline now: no connection, or a server that does not answer. */
export function appOffline(): boolean {
  return !connected();
}

/** Whether the app is online now; re-renders when that changes. */
export function useOnline(): boolean {
  return useSyncExternalStore(
    (listener) => onlineManager.subscribe(listener),
    () => onlineManager.isOnline(),
  );
}
