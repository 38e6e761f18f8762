// A quote as its customer reaches it, by the link the shop sent (`/q/{token}`; docs/behaviour.md,
// "Quotes"; crates/server/src/routes/quote_links.rs): the quote, the note that it is on screen,
// and the answers (approve, decline, ask). No account: the token is the key. Through api(), as
// the invite preview's call before a sign-in is: the auth cookie it sends, where there is one,
// these routes ignore, and its errors are the ApiErrors every form here reads.
import { type QueryClient, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

import { API_BASE, ApiError, api, productQuery } from '@/lib/api-client';
import type { components } from '@/lib/api-schema';

type Schemas = components['schemas'];
/** What the customer reads of the design. */
export type QuoteDesignFacts = Schemas['QuoteDesign'];
export type CustomerQuote = Schemas['CustomerQuote'];
export type QuoteOption = CustomerQuote['options'][number];
export type ApproveBody = Schemas['ApproveBody'];
export type DeclineBody = Schemas['DeclineBody'];
export type QuestionBody = Schemas['QuestionBody'];

/** The path under /api/v2 of the link's quote, or of its resource `rest` ('approve', 'pdf'). */
function linkPath(token: string, rest?: string): string {
  const quote = `/public/quotes/${encodeURIComponent(token)}`;
  return rest ? `${quote}/${rest}` : quote;
}

/** The address of a file of the link's quote, for a link or an image: its PDF, its design's drawing, the shop's logo. */
export function quoteFileUrl(token: string, file: 'pdf' | 'preview.svg' | 'logo'): string {
  return `${API_BASE}${linkPath(token, file)}`;
}

export function quoteLinkQueryOptions(token: string) {
  return queryOptions({
    queryKey: ['quote-link', token],
    queryFn: ({ signal }) => api<{ quote: CustomerQuote }>(linkPath(token), { signal }).then((body) => body.quote),
    ...productQuery,
    // Not kept across reloads: the kept copy is the signed-in person's (lib/offline/persist.ts),
    // and the server marks the quote as not to be stored.
    meta: { persist: false },
  });
}

/**
 * Says the quote's version `revision` is on screen (the server marks a sent quote viewed and tells
 * the shop, once). Sent by the page, not by opening the link, so a mail scanner that follows
 * links marks nothing. A failure is the shop's loss, not the customer's: it is ignored.
 */
export async function markViewed(token: string, revision: number): Promise<void> {
  try {
    await api<undefined>(linkPath(token, 'viewed'), { method: 'POST', body: { revision } });
  } catch {
    // The quote is on screen all the same.
  }
}

/**
 * After an answer refused because the quote is not as the page shows it (409: a newer version,
 * answered or withdrawn meanwhile; 410: the link closed), the quote is read again: the page then
 * shows the new version, its answer, or the closed link's message.
 */
function readAgainWhenStale(queryClient: QueryClient, token: string) {
  return (error: Error) => {
    if (error instanceof ApiError && (error.status === 409 || error.status === 410)) {
      void queryClient.invalidateQueries({ queryKey: quoteLinkQueryOptions(token).queryKey });
    }
  };
}

/** An answer the server took: the quote it answers with is the one on screen now. */
function useAnswer<Body>(token: string, answer: 'approve' | 'decline') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Body) =>
      api<{ quote: CustomerQuote }>(linkPath(token, answer), { method: 'POST', body }).then((answered) => answered.quote),
    onSuccess: (quote) => queryClient.setQueryData(quoteLinkQueryOptions(token).queryKey, quote),
    onError: readAgainWhenStale(queryClient, token),
  });
}

/** Approves the version `revision` for one of the quantities offered, signed with a typed name. */
export function useApproveQuote(token: string) {
  return useAnswer<ApproveBody>(token, 'approve');
}

/** Declines the version `revision`, with a reason. */
export function useDeclineQuote(token: string) {
  return useAnswer<DeclineBody>(token, 'decline');
}

/** Sends the shop a question; the shop answers by e-mail. */
export function useAskQuestion(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (question: QuestionBody) => api<undefined>(linkPath(token, 'questions'), { method: 'POST', body: question }),
    onError: readAgainWhenStale(queryClient, token),
  });
}
