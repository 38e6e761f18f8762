// POST /api/v2/teams/{team}/quotes/{id}/duplicate: saves a copy (members and above).
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, teamPath } from '@/lib/api-client';

import type { SavedQuote } from '../types';
import { quotesChanged } from './cache';

export async function duplicateQuote({ teamId, quoteId }: { teamId: string; quoteId: string }): Promise<SavedQuote> {
  const path = teamPath(teamId, `quotes/${encodeURIComponent(quoteId)}/duplicate`);
  return (await api<{ quote: SavedQuote }>(path, { method: 'POST' })).quote;
}

export function useDuplicateQuote(teamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (quoteId: string) => duplicateQuote({ teamId, quoteId }),
    onSuccess: () => quotesChanged(queryClient, teamId),
  });
}
