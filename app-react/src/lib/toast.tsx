// The app's only door to the toast library (react-toastify), so swapping it is one file with
// ./toaster.tsx, which holds the library. That is loaded on the first toast, not with the page
// (which most visits never use), and the list mounted then: a toast raised before
// the list is there waits in the library's queue and shows once it is.
import { type ComponentType, Suspense, lazy } from 'react';

import { createMemoryStore } from './store';

// A chunk that cannot be fetched (offline before the service worker holds the build) leaves the
// list out rather than failing the page; show() says so in the console.
const ToastList = lazy(async (): Promise<{ default: ComponentType }> => import('./toaster').catch(() => ({ default: () => null })));
const wanted = createMemoryStore<{ wanted: boolean }>(() => ({ wanted: false }));

export function Toaster() {
  if (!wanted.use((state) => state.wanted)) return null;
  return (
    <Suspense fallback={null}>
      <ToastList />
    </Suspense>
  );
}

type Kind = 'success' | 'error' | 'info';

function show(kind: Kind, message: string): void {
  wanted.setState({ wanted: true });
  import('./toaster').then(
    ({ toast }) => toast[kind](message),
    // The chunk could not be fetched (the connection dropped, or a new deployment removed it):
    // the message is not lost from sight altogether.
    (error: unknown) => console.error(`Toast not shown (${kind}): ${message}`, error),
  );
}

export const notify = {
  success: (message: string) => show('success', message),
  error: (message: string) => show('error', message),
  info: (message: string) => show('info', message),
};
