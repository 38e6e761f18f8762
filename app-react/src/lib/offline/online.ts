// Whether the browser has a connection (docs/behaviour.md, "Offline"). TanStack Query's
// onlineManager decides when reads refetch and when kept writes are sent; here it follows the
// browser's own word (`navigator.onLine` and its `online`/`offline` events), from the page's first
// moment: a page opened without a connection starts offline, so its writes are kept, not failed.
// Coming back online waits for `beforeGoingOnline`'s task first (the session's refresh: kept
// writes must not be sent with an access token that expired meanwhile).
import { onlineManager } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';

let beforeOnline: () => Promise<unknown> = () => Promise.resolve();

/** What must be done before the app counts as online again; answers the unregistering. */
export function beforeGoingOnline(task: () => Promise<unknown>): () => void {
  beforeOnline = task;
  return () => {
    if (beforeOnline === task) beforeOnline = () => Promise.resolve();
  };
}

let following = false;

/** Makes the data cache follow the browser's connection. Once per page. */
export function followConnection(): void {
  if (following || typeof window === 'undefined') return;
  following = true;
  onlineManager.setEventListener((setOnline) => {
    const update = () => {
      if (!navigator.onLine) {
        setOnline(false);
        return;
      }
      beforeOnline()
        .catch((error: unknown) => console.warn('Back online, but the session could not be refreshed:', error))
        .finally(() => setOnline(navigator.onLine));
    };
    setOnline(navigator.onLine);
    window.addEventListener('online', update);
    window.addEventListener('offline', update);
    return () => {
      window.removeEventListener('online', update);
      window.removeEventListener('offline', update);
    };
  });
}

/** Whether the app is online now; re-renders when that changes. */
export function useOnline(): boolean {
  return useSyncExternalStore(
    (listener) => onlineManager.subscribe(listener),
    () => onlineManager.isOnline(),
  );
}
