import type { FetchStatus } from '@tanstack/react-query';
import type { ReactNode } from 'react';

import { NOT_LOADED_OFFLINE } from '@/lib/query-client';

/**
 * A read's "Loading…" line while it has nothing to show. Offline, a read with no copy kept waits
 * (paused) for the connection: it says so rather than spin.
 */
export function LoadingStatus({ query, children }: { query: { isPending: boolean; fetchStatus: FetchStatus }; children: ReactNode }) {
  if (!query.isPending) return null;
  return <p role="status">{query.fetchStatus === 'paused' ? NOT_LOADED_OFFLINE : children}</p>;
}
