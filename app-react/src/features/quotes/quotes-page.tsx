// `/quotes`: the team's quotes by status (`?status=` keeps the choice across reloads), each with its
// customer, total and validity, newest first; a new quote starts in the pricing calculator.
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';

import { LoadingStatus } from '@/components/LoadingStatus';
import { pageTitle, paths, quotePagePath } from '@/config/paths';

import { type QuoteStatus, quoteListQueryOptions } from './api';
import { STATUS_LABELS, day, money, pieces } from './format';

export interface QuotesAccess {
  teamId: string;
  /** Members, admins and owners change and send quotes; viewers read. */
  canWrite: boolean;
}

const FILTERS: (QuoteStatus | 'all')[] = ['all', 'draft', 'sent', 'viewed', 'approved', 'declined', 'expired'];

function filterOf(raw: string | null): QuoteStatus | 'all' {
  return FILTERS.find((status) => status === raw) ?? 'all';
}

export function QuotesPage({ teamId, canWrite }: QuotesAccess) {
  const [search] = useSearchParams();
  const status = filterOf(search.get('status'));
  const list = useQuery(quoteListQueryOptions(teamId, status));
  const quotes = list.data?.quotes ?? [];
  return (
    <div className="quotes">
      <title>{pageTitle('Quotes')}</title>
      <h1>Quotes</h1>
      <p className="lead">
        Price a design in the calculator and save it as a quote; here you add the customer, the quantities to offer and your own lines, then
        send it. The customer approves it at their link, and the approved quote becomes a job.
      </p>
      {canWrite ? (
        <p>
          <Link className="button button--primary" to={paths.pricingCalculator}>
            Price a new quote
          </Link>
        </p>
      ) : null}
      <nav className="quote-filters" aria-label="Quotes by status">
        {FILTERS.map((filter) => (
          <Link
            key={filter}
            className="chip"
            to={filter === 'all' ? paths.quotes : `${paths.quotes}?status=${filter}`}
            aria-current={filter === status ? 'page' : undefined}
          >
            {filter === 'all' ? 'All' : STATUS_LABELS[filter]}
          </Link>
        ))}
      </nav>
      <LoadingStatus query={list}>Loading the quotes…</LoadingStatus>
      {list.isError && !list.data ? <p role="alert">The quotes could not be loaded.</p> : null}
      {list.data && quotes.length === 0 ? (
        <p>
          {status === 'all'
            ? 'No quotes yet: price a design in the calculator and save it.'
            : `No quotes are ${STATUS_LABELS[status].toLowerCase()}.`}
        </p>
      ) : null}
      {quotes.length > 0 ? (
        <table className="quote-table">
          <caption className="visually-hidden">
            {status === 'all' ? 'Every quote' : `Quotes ${STATUS_LABELS[status].toLowerCase()}`}, newest first
            {list.data && list.data.total > quotes.length ? ` (the newest ${quotes.length} of ${list.data.total})` : ''}
          </caption>
          <thead>
            <tr>
              <th scope="col">Number</th>
              <th scope="col">Quote</th>
              <th scope="col">Customer</th>
              <th scope="col">Status</th>
              <th scope="col" className="quote-table__money">
                Total
              </th>
              <th scope="col">Valid until</th>
            </tr>
          </thead>
          <tbody>
            {quotes.map((quote) => (
              <tr key={quote.id}>
                <td data-label="Number">{quote.number}</td>
                <th scope="row" data-label="Quote">
                  <Link to={quotePagePath(quote.id)}>{quote.name}</Link>
                </th>
                <td data-label="Customer">{[quote.customer_name, quote.customer_company].filter(Boolean).join(', ') || '—'}</td>
                <td data-label="Status">
                  <span className={`quote-status quote-status--${quote.status}`}>{STATUS_LABELS[quote.status]}</span>
                </td>
                <td data-label="Total" className="quote-table__money">
                  {money(quote.total, quote.currency)} <span className="muted">for {pieces(quote.quantity)}</span>
                </td>
                <td data-label="Valid until">{day(quote.valid_until)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}
