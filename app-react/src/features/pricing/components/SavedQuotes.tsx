// The team's saved quotes: search by name, pages, and for each Reopen (a link: the URL carries
// ?quote=ID, so a reload reopens it), Duplicate and Remove (members and above).
import { useDeferredValue, useId, useState } from 'react';
import { Link } from 'react-router';

import { ConfirmDialog } from '@/components/ConfirmDialog';
import { LoadingStatus } from '@/components/LoadingStatus';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { notify } from '@/lib/toast';

import { useDeleteQuote } from '../api/delete-quote';
import { useDuplicateQuote } from '../api/duplicate-quote';
import { useWaitingQuotes } from '../api/create-quote';
import { useQuotes } from '../api/get-quotes';
import { moneyFormat } from '../model';
import type { QuoteSummary } from '../types';

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** How a saved amount reads in its own currency (decimals as the amount has them). */
function money(amount: string, currency: string): string {
  return moneyFormat(currency, (amount.split('.')[1] ?? '').length)(amount);
}

export function quotePath(quoteId: string): string {
  return `${paths.pricingCalculator}?quote=${encodeURIComponent(quoteId)}`;
}

export function SavedQuotes({ teamId, canWrite, openId }: { teamId: string; canWrite: boolean; openId: string }) {
  const id = useId();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const q = useDeferredValue(search);
  const list = useQuotes(teamId, { q, page });
  const waiting = useWaitingQuotes(teamId);
  const pages = list.data ? Math.max(1, Math.ceil(list.data.total / list.data.per_page)) : 1;

  return (
    <section className="card pricing-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Saved quotes</h2>
      <div className="field">
        <label htmlFor={`${id}-search`}>Search quotes</label>
        <input
          id={`${id}-search`}
          type="search"
          value={search}
          onChange={(event) => {
            setSearch(event.target.value);
            setPage(1);
          }}
        />
      </div>
      {waiting.length > 0 ? (
        <ul className="item-list saved-quotes" aria-label="Quotes waiting to be sent">
          {waiting.map((name, index) => (
            // Not yet on the server: no id of their own.
            <li key={`${index}-${name}`}>
              {name} <span className="chip chip--waiting">Waiting to be sent</span>
            </li>
          ))}
        </ul>
      ) : null}
      <LoadingStatus query={list}>Loading the saved quotes…</LoadingStatus>
      {list.isError && !list.data ? <p role="alert">The saved quotes could not be loaded.</p> : null}
      {list.data && list.data.quotes.length === 0 ? (
        <p className="muted">{q.trim() ? 'No saved quote has that in its name.' : 'No quotes saved yet.'}</p>
      ) : null}
      {list.data && list.data.quotes.length > 0 ? (
        <ul className="item-list saved-quotes">
          {list.data.quotes.map((quote) => (
            <SavedQuoteItem key={quote.id} teamId={teamId} quote={quote} canWrite={canWrite} open={quote.id === openId} />
          ))}
        </ul>
      ) : null}
      {pages > 1 ? (
        <nav className="actions" aria-label="Pages of saved quotes">
          <button type="button" className="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Previous
          </button>
          <span>
            Page {page} of {pages}
          </span>
          <button type="button" className="button" disabled={page >= pages} onClick={() => setPage(page + 1)}>
            Next
          </button>
        </nav>
      ) : null}
    </section>
  );
}

function SavedQuoteItem({ teamId, quote, canWrite, open }: { teamId: string; quote: QuoteSummary; canWrite: boolean; open: boolean }) {
  const duplicate = useDuplicateQuote(teamId);
  const remove = useDeleteQuote(teamId);
  const [confirming, setConfirming] = useState(false);
  const failed = (failure: unknown, fallback: string) => notify.error(failure instanceof ApiError ? failure.message : fallback);

  return (
    <li className="item-list__item" aria-current={open ? 'true' : undefined}>
      <div className="item-list__text">
        <strong>{quote.name}</strong>
        <span>
          {money(quote.total, quote.currency)} · {quote.quantity} {quote.quantity === 1 ? 'piece' : 'pieces'} at{' '}
          {money(quote.per_piece, quote.currency)}
        </span>
        <span className="muted">
          {quote.created_by_name ?? quote.created_by_email ?? 'A former member'},{' '}
          <time dateTime={quote.created_at}>{when.format(new Date(quote.created_at))}</time>
        </span>
      </div>
      <div className="item-list__actions">
        <Link className="button" to={quotePath(quote.id)} aria-label={`Reopen ${quote.name}`}>
          Reopen
        </Link>
        {canWrite ? (
          <>
            <button
              type="button"
              className="button"
              aria-label={`Duplicate ${quote.name}`}
              disabled={duplicate.isPending}
              onClick={() =>
                duplicate.mutate(quote.id, {
                  onSuccess: (copy) => notify.success(`Saved a copy: "${copy.name}".`),
                  onError: (failure) => failed(failure, 'The quote could not be copied.'),
                })
              }
            >
              Duplicate
            </button>
            <ConfirmDialog
              trigger={
                <button type="button" className="button" aria-label={`Remove ${quote.name}`}>
                  Remove
                </button>
              }
              title={`Remove "${quote.name}"?`}
              confirmLabel="Remove"
              open={confirming}
              onOpenChange={setConfirming}
              busy={remove.isPending}
              onConfirm={() =>
                remove.mutate(quote.id, {
                  onSuccess: () => notify.success(`Removed "${quote.name}".`),
                  onError: (failure) => failed(failure, 'The quote could not be removed.'),
                  onSettled: () => setConfirming(false),
                })
              }
            >
              <p>The saved quote is removed for everyone in the team. This cannot be undone.</p>
            </ConfirmDialog>
          </>
        ) : null}
      </div>
    </li>
  );
}
