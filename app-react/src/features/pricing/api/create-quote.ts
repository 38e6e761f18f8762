// POST /api/v2/teams/{team}/quotes: saves a quote (members and above). The server prices the
// inputs again and answers 422 quote_mismatch unless its result is the one sent. A kept write
// (docs/behaviour.md, "Offline"): a quote saved offline waits in the saved quotes and is sent when
// the connection returns.
import { type QueryClient, mutationOptions, useMutation, useQueryClient } from '@tanstack/react-query';

import { api, teamPath } from '@/lib/api-client';
import { KEPT_WRITE, type KeptContext, type KeptWrite, isOffline, keyHeaders, refuse, useWaitingWrites } from '@/lib/offline/writes';

import type { QuoteDraft, SavedQuote } from '../types';
import { quotesChanged } from './cache';

export interface CreateQuote extends KeptWrite {
  teamId: string;
  draft: QuoteDraft;
}

export async function createQuote(write: CreateQuote): Promise<SavedQuote> {
  const { teamId, draft } = write;
  const request = { method: 'POST', body: draft, headers: keyHeaders(write) };
  return (await api<{ quote: SavedQuote }>(teamPath(teamId, 'quotes'), request)).quote;
}

const createQuoteKey = ['pricing', 'create-quote'] as const;

/**
 * What this write does, wherever it was made: the hook's options, and the data cache's defaults for
 * its key, which a write restored after a reload (its page gone) is sent with.
 */
function createQuoteOptions(queryClient: QueryClient) {
  return mutationOptions<SavedQuote, Error, CreateQuote, KeptContext>({
    mutationKey: createQuoteKey,
    ...KEPT_WRITE,
    mutationFn: createQuote,
    onMutate: () => ({ offline: isOffline() }),
    onError: (error, { draft }, context) => {
      if (context?.offline) refuse({ title: `Quote "${draft.name}"`, reason: error.message });
    },
    onSuccess: (_quote, { teamId }) => quotesChanged(queryClient, teamId),
  });
}

export function registerCreateQuote(queryClient: QueryClient): void {
  queryClient.setMutationDefaults(createQuoteKey, createQuoteOptions(queryClient));
}

export function useCreateQuote() {
  return useMutation(createQuoteOptions(useQueryClient()));
}

/** The names of `teamId`'s quotes saved offline, waiting for the connection. */
export function useWaitingQuotes(teamId: string): string[] {
  return useWaitingWrites<CreateQuote>(createQuoteKey)
    .filter((write) => write.teamId === teamId)
    .map((write) => write.draft.name);
}
