// DELETE /api/v2/teams/{team}/quotes/{id}: removes a saved quote (members and above).
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, teamPath } from '@/lib/api-client';
import { libraryChanged } from '@/lib/design-library';

import { quoteQueryOptions } from './get-quote';
import { quotesQueryOptions } from './get-quotes';

export async function deleteQuote({ teamId, quoteId }: { teamId: string; quoteId: string }): Promise<void> {
  await api<undefined>(teamPath(teamId, `quotes/${encodeURIComponent(quoteId)}`), { method: 'DELETE' });
}

export function useDeleteQuote(teamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (quoteId: string) => deleteQuote({ teamId, quoteId }),
    onSuccess: async (_, quoteId) => {
      queryClient.removeQueries({ queryKey: quoteQueryOptions(teamId, quoteId).queryKey });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: quotesQueryOptions(teamId).queryKey }),
        // The designs' pages list the quotes priced from them.
        libraryChanged(queryClient, teamId),
      ]);
    },
  });
}
