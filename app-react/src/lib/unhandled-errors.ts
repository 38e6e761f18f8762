// The errors nothing caught: thrown outside React (a timer, an event listener, a React event
// handler, which React reports to window) or a rejected promise nobody handled. The browser tells
// window of both, and the app shows its error page for them (docs/behaviour.md, "Error pages").
// Only the app's own errors count: window also hears of scripts the app does not run and of
// failures that are part of normal use, and a crash page for those would break a working page.
import { CancelledError } from '@tanstack/react-query';

/** The page's address of a browser extension's script (a stack frame or a file name). */
const EXTENSION_URL = /^(?:chrome|moz|safari|safari-web|ms-browser)-extension:\/\//;

/**
 * The error an `error` event on window reports, if it is the app's own and fatal; else undefined.
 * Not fatal:
 * - an event without an error object: a script of another origin (which browsers report only as
 *   'Script error.') and the ResizeObserver loop notices, which browsers report this way and
 *   which do no harm (a resize handled a frame later);
 * - an error in a script of another origin or of a browser extension (by its file name, or the
 *   first frame of its stack);
 * - anything but an ErrorEvent: a resource that failed to load fires a plain `error` event at its
 *   element, which does not bubble to window (a capturing listener would hear it: this is none).
 */
export function fatalErrorOf(event: Event, origin: string = window.location.origin): unknown {
  if (!(event instanceof ErrorEvent) || event.error === null || event.error === undefined) return undefined;
  if (/^ResizeObserver loop/.test(event.message)) return undefined;
  if (event.filename && !sameOrigin(event.filename, origin)) return undefined;
  return fromExtension(event.error) ? undefined : event.error;
}

/**
 * The reason of an `unhandledrejection` event, if it is fatal; else undefined. A cancellation is
 * not: a fetch aborted (an AbortError: a page left, a query dropped), a query TanStack Query
 * cancelled (its CancelledError: a sign-out cancels every query in flight).
 */
export function fatalRejectionOf(event: PromiseRejectionEvent): unknown {
  const { reason } = event as { reason: unknown };
  if (reason instanceof CancelledError || isAbort(reason) || fromExtension(reason)) return undefined;
  // `Promise.reject()` has no reason, and is no less unhandled: something stands for it.
  return reason ?? new Error('A promise was rejected without a reason');
}

/**
 * Calls `onFatal` with each fatal error window hears of (above); answers the unsubscribing. The
 * browser still logs the error itself, as for any uncaught one: nothing here prevents that.
 */
export function watchUnhandledErrors(onFatal: (error: unknown) => void, target: Window = window): () => void {
  const onError = (event: Event) => {
    const error = fatalErrorOf(event, target.location.origin);
    if (error !== undefined) onFatal(error);
  };
  const onRejection = (event: PromiseRejectionEvent) => {
    const error = fatalRejectionOf(event);
    if (error !== undefined) onFatal(error);
  };
  target.addEventListener('error', onError);
  target.addEventListener('unhandledrejection', onRejection);
  return () => {
    target.removeEventListener('error', onError);
    target.removeEventListener('unhandledrejection', onRejection);
  };
}

function isAbort(reason: unknown): boolean {
  // A DOMException in browsers; other abort errors (Node's, a library's) use the same name.
  return reason instanceof Error || reason instanceof DOMException ? reason.name === 'AbortError' : false;
}

function sameOrigin(url: string, origin: string): boolean {
  try {
    return new URL(url, origin).origin === origin;
  } catch {
    return false;
  }
}

/**
 * Whether `error` was thrown by a browser extension's script that runs in the page: its stack's
 * first frame (not any frame: an extension that wraps timers or fetch is in every stack).
 */
function fromExtension(error: unknown): boolean {
  if (!(error instanceof Error) || !error.stack) return false;
  // V8 starts the stack with the error's own text, which may hold an address of its own.
  const text = String(error);
  const frames = error.stack.startsWith(text) ? error.stack.slice(text.length) : error.stack;
  const first = /[a-z][a-z\d+.-]*:\/\/[^\s)]+/i.exec(frames);
  return first !== null && EXTENSION_URL.test(first[0]);
}
