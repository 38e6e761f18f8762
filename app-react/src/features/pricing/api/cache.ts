import type { QueryClient } from '@tanstack/react-query';

import { libraryChanged } from '@/lib/design-library';

/** Every saved-quote read of a team; a write invalidates them all. */
export const quotesKey = (teamId: string) => ['pricing', teamId, 'quotes'] as const;

/** After a quote is saved, copied or removed: the team's quotes are read again, and so are the
 * library's designs, whose pages list the quotes priced from them. */
export function quotesChanged(queryClient: QueryClient, teamId: string): Promise<unknown> {
  return Promise.all([queryClient.invalidateQueries({ queryKey: quotesKey(teamId) }), libraryChanged(queryClient, teamId)]);
}
