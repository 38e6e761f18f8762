// GET /api/v2/teams/{team}/quotes/{id}: one saved quote with its inputs, rates and result.
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, productQuery, teamPath } from '@/lib/api-client';

import { parseSavedQuote } from '../saved-quote';
import { quotesKey } from './cache';

/** The answer as it came: checked by the query's `select`, so a copy kept in this browser from
 * before is checked too. */
export async function fetchQuote(teamId: string, quoteId: string, signal?: AbortSignal): Promise<unknown> {
  const path = teamPath(teamId, `quotes/${encodeURIComponent(quoteId)}`);
  return (await api<{ quote: unknown }>(path, signal ? { signal } : {})).quote;
}

export function quoteQueryOptions(teamId: string, quoteId: string) {
  return queryOptions({
    queryKey: [...quotesKey(teamId), 'one', quoteId],
    queryFn: ({ signal }) => fetchQuote(teamId, quoteId, signal),
    // A quote of another shape is an error (UnreadableQuote), which the page shows in words.
    select: parseSavedQuote,
    ...productQuery,
    // A saved quote never changes (a copy is a new quote): read it once.
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useQuote(teamId: string, quoteId: string) {
  return useQuery({ ...quoteQueryOptions(teamId, quoteId), enabled: teamId !== '' && quoteId !== '' });
}
