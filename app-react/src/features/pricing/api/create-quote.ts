// POST /api/v2/teams/{team}/quotes: saves a quote (members and above). The server prices the
// inputs again and answers 422 quote_mismatch unless its result is the one sent.
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, teamPath } from '@/lib/api-client';

import type { QuoteDraft, SavedQuote } from '../types';
import { quotesKey } from './cache';

export async function createQuote({ teamId, draft }: { teamId: string; draft: QuoteDraft }): Promise<SavedQuote> {
  return (await api<{ quote: SavedQuote }>(teamPath(teamId, 'quotes'), { method: 'POST', body: draft })).quote;
}

export function useCreateQuote(teamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (draft: QuoteDraft) => createQuote({ teamId, draft }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: quotesKey(teamId) }),
  });
}
