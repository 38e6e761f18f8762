// `/quotes/:quoteId`: one quote for the shop. What the customer is offered, the actions that move it
// on (send by e-mail or link, withdraw, the PDF, make the job once approved), the document to edit,
// and its history. While the quote waits on its customer, the page reads it again every 15 s, so a
// view or an answer shows without a reload.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';

import { ConfirmDialog } from '@/components/ConfirmDialog';
import { LoadingStatus } from '@/components/LoadingStatus';
import { FormAlert, FormStatus } from '@/components/form';
import { jobPath, pageTitle, paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';

import { type Quote, eventsQueryOptions, pdfHref, quoteQueryOptions, useMakeQuoteJob, useSendQuote, useWithdrawQuote } from './api';
import { QuoteEditor } from './components/QuoteEditor';
import { QuoteHistory } from './components/QuoteHistory';
import { QuoteOffer } from './components/QuoteOffer';
import { STATUS_LABELS, day, pieces } from './format';
import type { QuotesAccess } from './quotes-page';

/** How often a quote waiting on its customer is read again. */
const WATCH_MS = 15_000;

function waiting(quote: Quote | undefined): boolean {
  return quote?.status === 'sent' || quote?.status === 'viewed';
}

function failure(error: unknown, fallback: string): string {
  return error instanceof ApiError ? error.message : fallback;
}

export function QuotePage({ teamId, canWrite, quoteId }: QuotesAccess & { quoteId: string }) {
  const quote = useQuery({
    ...quoteQueryOptions(teamId, quoteId),
    refetchInterval: (query) => (waiting(query.state.data) ? WATCH_MS : false),
  });
  const events = useQuery({ ...eventsQueryOptions(teamId, quoteId), refetchInterval: waiting(quote.data) ? WATCH_MS : false });
  // The history follows the quote: when its status changes (viewed, approved), the history is read
  // again, also when that change ends the watching (the last poll of the history may have come
  // just before the customer's answer).
  const queryClient = useQueryClient();
  const status = quote.data?.status;
  const seenStatus = useRef(status);
  useEffect(() => {
    if (seenStatus.current !== undefined && seenStatus.current !== status) {
      void queryClient.invalidateQueries({ queryKey: eventsQueryOptions(teamId, quoteId).queryKey });
    }
    seenStatus.current = status;
  }, [queryClient, status, teamId, quoteId]);
  const data = quote.data;
  return (
    <div className="quote-page">
      <title>{pageTitle(data ? `${data.number} ${data.name}` : 'Quote')}</title>
      <p>
        <Link to={paths.quotes}>All quotes</Link>
      </p>
      <LoadingStatus query={quote}>Loading the quote…</LoadingStatus>
      {quote.isError && !data ? <p role="alert">{failure(quote.error, 'The quote could not be loaded.')}</p> : null}
      {data ? (
        <>
          <h1>
            {data.number} <span className="quote-page__name">{data.name}</span>
          </h1>
          <p className="quote-page__standing">
            <span className={`quote-status quote-status--${data.status}`}>{STATUS_LABELS[data.status]}</span>
            <span>Version {data.revision}</span>
            <span>Valid until {day(data.valid_until)}</span>
            {data.customer.name || data.customer.company ? (
              <span>For {[data.customer.name, data.customer.company].filter(Boolean).join(', ')}</span>
            ) : null}
          </p>
          <Answer quote={data} />
          <div className="quote-page__layout">
            <div className="quote-page__main">
              <section className="card" aria-labelledby={`${quoteId}-offer`}>
                <h2 id={`${quoteId}-offer`}>What the customer is offered</h2>
                <QuoteOffer
                  offer={data.offer}
                  lines={data.terms.lines ?? []}
                  currency={data.currency}
                  taxPercent={data.terms.tax_percent}
                  chosen={data.answer?.kind === 'approved' ? data.answer.quantity : undefined}
                />
                {data.terms.notes ? <p className="quote-page__notes">{data.terms.notes}</p> : null}
              </section>
              {canWrite && data.status !== 'approved' ? <QuoteEditor teamId={teamId} quote={data} /> : null}
            </div>
            <aside className="quote-page__side">
              <Actions teamId={teamId} quote={data} canWrite={canWrite} />
              <section className="card" aria-labelledby={`${quoteId}-history`}>
                <h2 id={`${quoteId}-history`}>History</h2>
                {events.data ? <QuoteHistory events={events.data} /> : <LoadingStatus query={events}>Loading the history…</LoadingStatus>}
              </section>
            </aside>
          </div>
        </>
      ) : null}
    </div>
  );
}

/** The customer's answer, where the shop looks first. */
function Answer({ quote }: { quote: Quote }) {
  const answer = quote.answer;
  if (!answer) return null;
  if (answer.kind === 'approved') {
    const order = answer.po_number ? `, order ${answer.po_number}` : '';
    return (
      <p className="quote-answer quote-answer--approved" role="status">
        Approved by {answer.name} on {day(answer.at.slice(0, 10))} for {pieces(answer.quantity)}
        {order}.
      </p>
    );
  }
  return (
    <p className="quote-answer quote-answer--declined" role="status">
      Declined on {day(answer.at.slice(0, 10))}: {answer.reason}
    </p>
  );
}

function Actions({ teamId, quote, canWrite }: { teamId: string; quote: Quote; canWrite: boolean }) {
  const id = useId();
  return (
    <section className="card quote-actions" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Actions</h2>
      {canWrite && quote.status !== 'approved' ? <Send teamId={teamId} quote={quote} /> : null}
      {canWrite && quote.shared ? <Withdraw teamId={teamId} quote={quote} /> : null}
      {canWrite && quote.status === 'approved' ? <MakeJob teamId={teamId} quote={quote} /> : null}
      <p>
        <a href={pdfHref(teamId, quote.id)} target="_blank" rel="noreferrer">
          Download the PDF
        </a>
      </p>
      <p>
        <Link to={`${paths.pricingCalculator}?quote=${encodeURIComponent(quote.id)}`}>Open in the pricing calculator</Link>
      </p>
    </section>
  );
}

function Send({ teamId, quote }: { teamId: string; quote: Quote }) {
  const send = useSendQuote(teamId, quote.id);
  const [link, setLink] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const expired = quote.status === 'expired';
  const go = (email: boolean) => {
    setNote(null);
    send.mutate(email, {
      onSuccess: (sent) => {
        setLink(sent.link);
        setNote(email ? `E-mailed to ${quote.customer.email}.` : 'Anyone with this link can read and answer the quote until it expires.');
      },
    });
  };
  return (
    <div className="quote-send">
      {expired ? <p>Its date has passed: give it a new one below before sending it again.</p> : null}
      <div className="actions">
        {quote.customer.email ? (
          <button type="button" className="button button--primary" disabled={send.isPending || expired} onClick={() => go(true)}>
            {quote.status === 'draft' ? 'Send' : 'Send again'} to {quote.customer.email}
          </button>
        ) : null}
        <button type="button" className="button" disabled={send.isPending || expired} onClick={() => go(false)}>
          Make a link to share
        </button>
      </div>
      {!quote.customer.email ? <p className="muted">Add the customer's e-mail to send it from Bobbin.</p> : null}
      <FormAlert message={send.isError ? failure(send.error, 'The quote could not be sent. Check the connection and try again.') : null} />
      <FormStatus message={note} />
      {link ? (
        <div className="field">
          <label htmlFor={`${quote.id}-link`}>The customer's link (shown this once)</label>
          <input id={`${quote.id}-link`} readOnly value={link} onFocus={(event) => event.currentTarget.select()} />
          <button type="button" className="button" onClick={() => void navigator.clipboard.writeText(link)}>
            Copy the link
          </button>
        </div>
      ) : null}
    </div>
  );
}

function Withdraw({ teamId, quote }: { teamId: string; quote: Quote }) {
  const withdraw = useWithdrawQuote(teamId, quote.id);
  const [open, setOpen] = useState(false);
  return (
    <>
      <ConfirmDialog
        trigger={
          <button type="button" className="button">
            Withdraw the links
          </button>
        }
        title="Withdraw this quote's links?"
        confirmLabel="Withdraw"
        open={open}
        onOpenChange={setOpen}
        busy={withdraw.isPending}
        onConfirm={() => withdraw.mutate(undefined, { onSuccess: () => setOpen(false) })}
      >
        <p>Every link sent for it stops working, and the quote becomes a draft. Send it again to make a new link.</p>
      </ConfirmDialog>
      <FormAlert message={withdraw.isError ? failure(withdraw.error, 'The links could not be withdrawn.') : null} />
    </>
  );
}

function MakeJob({ teamId, quote }: { teamId: string; quote: Quote }) {
  const make = useMakeQuoteJob(teamId, quote.id);
  const navigate = useNavigate();
  if (quote.job_id) {
    return (
      <p>
        <Link className="button button--primary" to={jobPath(quote.job_id)}>
          Open the job
        </Link>
      </p>
    );
  }
  return (
    <>
      <button
        type="button"
        className="button button--primary"
        disabled={make.isPending}
        onClick={() => make.mutate(undefined, { onSuccess: (jobId) => void navigate(jobPath(jobId)) })}
      >
        Make the job
      </button>
      <FormAlert message={make.isError ? failure(make.error, 'The job could not be made.') : null} />
    </>
  );
}
