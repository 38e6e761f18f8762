// The price as the core computed it: per piece, one-off fees, total, the breakdown, and what
// the job asks of a machine.
import type { Quote, Rates } from '@/lib/core';

import { formatCount, formatDecimal, itemLabel, moneyFormat } from '../model';

const hoursFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });

export function QuoteResult({
  quote,
  rates,
  currency,
  separate,
}: {
  quote: Quote;
  rates: Rates;
  currency: string;
  /** The one-off fees are shown apart rather than spread over the pieces. */
  separate: boolean;
}) {
  const money = moneyFormat(currency, quote.decimals);
  // Rates carry up to 4 decimals ("0.0125" per 1,000); show them all, but at least the currency's.
  const rateDecimals = Math.max(quote.decimals, Math.min(4, (quote.price_per_thousand.split('.')[1] ?? '').replace(/0+$/, '').length));
  const rateMoney = moneyFormat(currency, rateDecimals);
  const time = quote.machine_time;
  const breakNote = quote.quantity_break
    ? 'discount_percent' in quote.quantity_break
      ? ` (${formatCount(quote.quantity_break.min_quantity)}+ pieces: ${formatDecimal(quote.quantity_break.discount_percent, 0)}% off)`
      : ` (${formatCount(quote.quantity_break.min_quantity)}+ pieces)`
    : '';

  return (
    <div className="quote-result">
      {/* Announced as it changes; the breakdown below is read on demand. */}
      <dl className="quote-result__figures" aria-live="polite">
        <div className="quote-result__main">
          <dt>Price per piece</dt>
          <dd data-testid="price-per-piece">{money(quote.per_piece)}</dd>
        </div>
        {separate ? (
          <div>
            <dt>One-off fees</dt>
            <dd>{money(quote.one_off)}</dd>
          </div>
        ) : null}
        <div className="quote-result__main">
          <dt>Total</dt>
          <dd data-testid="price-total">{money(quote.total)}</dd>
        </div>
        {time ? (
          <div>
            <dt>Per machine hour</dt>
            <dd>
              {money(time.price_per_hour)} <span className="muted">({money(time.price_per_hour_after_materials)} after materials)</span>
            </dd>
          </div>
        ) : null}
      </dl>
      <p className="quote-result__note">
        Billable stitches {formatCount(quote.billable_stitches)}, at {rateMoney(quote.price_per_thousand)} per 1,000 stitches
        {breakNote}.
      </p>
      {time ? (
        <p className="quote-result__note">
          Machine time {hoursFormat.format(Number(time.hours))} hours in {formatCount(time.runs)} {time.runs === 1 ? 'run' : 'runs'} (
          {hoursFormat.format(Number(time.minutes_per_piece))} minutes a piece on one head).
        </p>
      ) : null}
      <div className="table-scroll" role="region" aria-label="Price breakdown" tabIndex={0}>
        <table className="quote-breakdown">
          <caption className="visually-hidden">Price breakdown</caption>
          <thead>
            <tr>
              <th scope="col">Item</th>
              <th scope="col">Per piece</th>
              <th scope="col">Total</th>
            </tr>
          </thead>
          <tbody>
            {quote.lines.map((line) => (
              <tr key={line.item}>
                <th scope="row">{itemLabel(line.item, rates)}</th>
                <td>{line.per_piece === null ? '—' : money(line.per_piece)}</td>
                <td>{money(line.total)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
