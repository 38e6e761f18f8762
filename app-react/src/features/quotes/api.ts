// Quotes on the product API (docs/behaviour.md, "Quotes"): the list by status, one quote with its
// document as the customer sees it and its history, and the shop's writes (change, send, withdraw,
// make the job). Reads are kept in the browser like the other reads; writes need a connection.
import { type QueryClient, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

import { api, productQuery, teamPath } from '@/lib/api-client';
import type { components } from '@/lib/api-schema';

type Schemas = components['schemas'];
export type QuoteStatus = Schemas['QuoteStatus'];
export type QuoteSummary = Schemas['QuoteSummary'];
export type Quote = Schemas['QuoteView'];
export type CustomerQuote = Schemas['CustomerQuote'];
export type QuoteEvent = Schemas['EventView'];
export type Terms = Schemas['Terms'];
export type ExtraLine = Schemas['ExtraLine'];
export type OptionPrice = Schemas['OptionPrice'];
export type Customer = Schemas['Customer'];
export interface QuoteChanges {
  name?: string;
  customer?: Customer;
  terms?: Terms;
  valid_until?: string;
}

/**
 * Every quote read of a team, under the calculator's saved-quotes key: a change made here reads the
 * calculator's list again, and a quote saved there reads this list again.
 */
export const quotesKey = (teamId: string) => ['pricing', teamId, 'quotes'] as const;

const quotePath = (teamId: string, quoteId: string, rest = '') => teamPath(teamId, `quotes/${encodeURIComponent(quoteId)}${rest}`);

/** The newest 100 quotes, all or in one status (the shop's list). */
export function quoteListQueryOptions(teamId: string, status: QuoteStatus | 'all') {
  const query = status === 'all' ? 'per_page=100' : `per_page=100&status=${status}`;
  return queryOptions({
    queryKey: [...quotesKey(teamId), 'documents', status],
    queryFn: ({ signal }) => api<{ quotes: QuoteSummary[]; total: number }>(teamPath(teamId, `quotes?${query}`), { signal }),
    ...productQuery,
    enabled: teamId !== '',
  });
}

export function quoteQueryOptions(teamId: string, quoteId: string) {
  return queryOptions({
    queryKey: [...quotesKey(teamId), 'document', quoteId],
    queryFn: ({ signal }) => api<{ quote: Quote }>(quotePath(teamId, quoteId), { signal }).then((body) => body.quote),
    ...productQuery,
    enabled: teamId !== '' && quoteId !== '',
  });
}

/** The quote as its customer sees it now. */
export function documentQueryOptions(teamId: string, quoteId: string) {
  return queryOptions({
    queryKey: [...quotesKey(teamId), 'document', quoteId, 'customer'],
    queryFn: ({ signal }) =>
      api<{ document: CustomerQuote }>(quotePath(teamId, quoteId, '/document'), { signal }).then((body) => body.document),
    ...productQuery,
    enabled: teamId !== '' && quoteId !== '',
  });
}

export function eventsQueryOptions(teamId: string, quoteId: string) {
  return queryOptions({
    queryKey: [...quotesKey(teamId), 'document', quoteId, 'events'],
    queryFn: ({ signal }) => api<{ events: QuoteEvent[] }>(quotePath(teamId, quoteId, '/events'), { signal }).then((body) => body.events),
    ...productQuery,
    enabled: teamId !== '' && quoteId !== '',
  });
}

/** The PDF of the quote, as the customer's link gives it. */
export function pdfHref(teamId: string, quoteId: string): string {
  return `/api/v2${quotePath(teamId, quoteId, '/pdf')}`;
}

function quoteChanged(queryClient: QueryClient, teamId: string): Promise<unknown> {
  return queryClient.invalidateQueries({ queryKey: quotesKey(teamId) });
}

/** Changes the quote as last read (`revision`): a new version, the one before kept. */
export function useChangeQuote(teamId: string, quote: Quote) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: QuoteChanges) =>
      api<{ quote: Quote }>(quotePath(teamId, quote.id), { method: 'PATCH', body: { ...changes, revision: quote.revision } }).then(
        (body) => body.quote,
      ),
    onSuccess: (changed) => {
      queryClient.setQueryData(quoteQueryOptions(teamId, changed.id).queryKey, changed);
      return quoteChanged(queryClient, teamId);
    },
  });
}

/** Makes a new link for the customer, e-mailed to them when `email`; the answer holds the link. */
export function useSendQuote(teamId: string, quoteId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (email: boolean) =>
      api<{ quote: Quote; link: string }>(quotePath(teamId, quoteId, '/send'), { method: 'POST', body: { email } }),
    onSuccess: () => quoteChanged(queryClient, teamId),
  });
}

/** Withdraws every link: each answers "withdrawn" from now on. */
export function useWithdrawQuote(teamId: string, quoteId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<{ quote: Quote }>(quotePath(teamId, quoteId, '/revoke'), { method: 'POST' }),
    onSuccess: () => quoteChanged(queryClient, teamId),
  });
}

/** Makes the approved quote's job (or finds the one made before); its public id. */
export function useMakeQuoteJob(teamId: string, quoteId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<{ job: { id: string } }>(quotePath(teamId, quoteId, '/job'), { method: 'POST' }).then((body) => body.job.id),
    onSuccess: () => Promise.all([quoteChanged(queryClient, teamId), queryClient.invalidateQueries({ queryKey: ['jobs', teamId] })]),
  });
}
