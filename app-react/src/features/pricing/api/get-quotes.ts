// GET /api/v2/teams/{team}/quotes?q=&page=&per_page=: the team's saved quotes, newest first.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api, productQuery, teamPath } from '@/lib/api-client';

import { parseQuotePage } from '../saved-quote';
import { quotesKey } from './cache';

export const QUOTES_PER_PAGE = 20;

export interface QuoteFilters {
  q: string;
  page: number;
}

export function quotesQuery({ q, page }: QuoteFilters): string {
  const params = new URLSearchParams();
  if (q.trim()) params.set('q', q.trim());
  params.set('page', String(page));
  params.set('per_page', String(QUOTES_PER_PAGE));
  return params.toString();
}

/** The answer as it came: checked by the query's `select` (a copy kept in this browser too). */
export async function fetchQuotes(teamId: string, filters: QuoteFilters, signal?: AbortSignal): Promise<unknown> {
  return api<unknown>(teamPath(teamId, `quotes?${quotesQuery(filters)}`), signal ? { signal } : {});
}

export function quotesQueryOptions(teamId: string, filters?: QuoteFilters) {
  return queryOptions({
    queryKey: filters ? [...quotesKey(teamId), 'list', filters] : [...quotesKey(teamId), 'list'],
    queryFn: ({ signal }) => fetchQuotes(teamId, filters ?? { q: '', page: 1 }, signal),
    select: parseQuotePage,
    ...productQuery,
  });
}

export function useQuotes(teamId: string, filters: QuoteFilters) {
  return useQuery({ ...quotesQueryOptions(teamId, filters), enabled: teamId !== '', placeholderData: keepPreviousData });
}
