// `/q/{token}`: a quote as the shop's customer reads it, by the link the shop sent
// (docs/behaviour.md, "Quotes"). No account, no app around it: the shop's head, the quote as its
// PDF lays it out, and the customer's answer. The server serves this page only for a link that
// opens a quote (crates/server/src/routes/quote_links.rs); one that closes while the page is
// open (withdrawn, expired) shows a plain message, as the server's own page would.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useParams } from 'react-router';

import { LoadingStatus } from '@/components/LoadingStatus';
import { ApiError } from '@/lib/api-client';

import { type CustomerQuote, markViewed, quoteFileUrl, quoteLinkQueryOptions } from './api';
import { QuoteAnswer } from './components/QuoteAnswer';
import { QuoteDesign } from './components/QuoteDesign';
import { QuoteHead } from './components/QuoteHead';
import { QuotePrices } from './components/QuotePrices';

export function CustomerQuotePage() {
  const { token = '' } = useParams();
  const quote = useQuery(quoteLinkQueryOptions(token));
  // A link that closed while the page was open answers 410 to the reads after it: that wins over
  // the copy on screen, which can no longer be answered.
  if (quote.error instanceof ApiError && (quote.error.status === 404 || quote.error.status === 410)) {
    return <ClosedLink error={quote.error} />;
  }
  if (quote.data) return <QuoteView token={token} quote={quote.data} />;
  return (
    <main className="quote-link">
      <title>Quote</title>
      <LoadingStatus query={quote}>Loading the quote…</LoadingStatus>
      {quote.isError ? (
        <section className="card quote-link-closed">
          <h1>The quote could not be loaded</h1>
          <p role="alert">{quote.error.message}</p>
          <button type="button" className="button" onClick={() => void quote.refetch()}>
            Try again
          </button>
        </section>
      ) : null}
    </main>
  );
}

/** What a link that opens no quote says: the server's words for it (404, 410). */
function ClosedLink({ error }: { error: ApiError }) {
  const titles: Record<string, string> = {
    link_revoked: 'This quote was withdrawn',
    link_expired: 'This quote has expired',
    quote_in_revision: 'This quote is being revised',
  };
  const title = titles[error.code] ?? 'No quote here';
  return (
    <main className="quote-link">
      <title>{title}</title>
      <section className="card quote-link-closed">
        <h1>{title}</h1>
        <p>{error.message}</p>
      </section>
    </main>
  );
}

function QuoteView({ token, quote }: { token: string; quote: CustomerQuote }) {
  const id = useId();
  useViewedOnce(token, quote.revision);
  // The version the page opened with: a newer one (read again after an answer found it changed)
  // is said to be new where the customer answers.
  const [opened] = useState(quote.revision);
  const { customer } = quote;
  return (
    <main className="quote-link">
      {/* The customer knows the shop, not Bobbin: the shop's name, not the product's. */}
      <title>{`Quote ${quote.number} from ${quote.shop.name}`}</title>
      <QuoteHead token={token} quote={quote} />
      <div className="quote-link__layout">
        <article className="card quote-link-doc" aria-labelledby={`${id}-title`}>
          {customer.name || customer.company ? (
            <p className="quote-link-doc__for">
              <span className="muted">For</span>
              {customer.name ? <strong>{customer.name}</strong> : null}
              {customer.company ? <span>{customer.company}</span> : null}
            </p>
          ) : null}
          <h1 id={`${id}-title`} className="quote-link-doc__title">
            {quote.title}
          </h1>
          {quote.design ? <QuoteDesign token={token} design={quote.design} /> : null}
          <QuotePrices quote={quote} />
          {quote.notes.trim() ? (
            <section aria-labelledby={`${id}-notes`}>
              <h2 id={`${id}-notes`}>Notes</h2>
              <p className="quote-link-doc__notes">{quote.notes.trim()}</p>
            </section>
          ) : null}
          <p className="no-print">
            <a className="button" href={quoteFileUrl(token, 'pdf')} target="_blank" rel="noopener">
              Download PDF<span className="visually-hidden"> (opens in a new tab)</span>
            </a>
          </p>
        </article>
        <QuoteAnswer token={token} quote={quote} changed={quote.revision !== opened} />
      </div>
    </main>
  );
}

/**
 * Tells the server once that version `revision` is on screen: after it is shown, not when the
 * link is opened. Once per version, though React runs effects twice in development.
 */
function useViewedOnce(token: string, revision: number) {
  const told = useRef<number | null>(null);
  useEffect(() => {
    if (told.current === revision) return;
    told.current = revision;
    void markViewed(token, revision);
  }, [token, revision]);
}
