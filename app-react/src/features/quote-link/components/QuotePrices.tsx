import { useId } from 'react';

import type { CustomerQuote, QuoteOption } from '../api';
import { counted, formatMoney, longDate, plainDecimal } from '../format';

/** A row of prices: what it is, and an amount for each option it shows. */
interface Row {
  label: string;
  amounts: string[];
  kind?: 'subtotal' | 'total';
}

/**
 * The prices, with the PDF's rows and words (crates/server/src/pdf.rs). One option: a list of
 * amounts. Several: on a wide screen a column for each, to compare; on a phone, where six columns
 * cannot fit, a card for each, listed as one option alone would be.
 */
export function QuotePrices({ quote }: { quote: CustomerQuote }) {
  const id = useId();
  const chosen = quote.answer?.kind === 'approved' ? quote.answer.quantity : null;
  const [first, ...others] = quote.options;
  return (
    <section className="quote-link-prices" aria-labelledby={`${id}-prices`}>
      <h2 id={`${id}-prices`}>Prices</h2>
      {first && others.length === 0 ? <PriceList rows={optionRows(quote, first)} /> : null}
      {others.length > 0 ? (
        <>
          <div className="quote-link-prices__compare table-scroll">
            <table className="quote-link-table">
              <caption className="visually-hidden">Prices for each quantity offered</caption>
              <thead>
                <tr>
                  <td />
                  {quote.options.map((option) => (
                    <th key={option.quantity} scope="col" className={option.quantity === chosen ? 'quote-link-table__chosen' : undefined}>
                      {counted(option.quantity, 'piece', 'pieces')}
                      {option.quantity === chosen ? (
                        <>
                          {' '}
                          <span className="quote-link-chosen">Chosen</span>
                        </>
                      ) : null}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {comparisonRows(quote).map((row, index) => (
                  <tr key={index} className={row.kind ? `quote-link-table__${row.kind}` : undefined}>
                    <th scope="row">{row.label}</th>
                    {row.amounts.map((amount, column) => (
                      <td key={column}>{amount}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <ul className="quote-link-prices__cards">
            {quote.options.map((option) => (
              <li key={option.quantity} className="quote-link-option" aria-labelledby={`${id}-option-${option.quantity}`}>
                <h3 id={`${id}-option-${option.quantity}`} className="quote-link-option__title">
                  {counted(option.quantity, 'piece', 'pieces')}
                  {option.quantity === chosen ? (
                    <>
                      {' '}
                      <span className="quote-link-chosen">Chosen</span>
                    </>
                  ) : null}
                </h3>
                <PriceList rows={optionRows(quote, option)} />
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <p className="muted">
        Prices in {quote.currency}. Valid until {longDate(quote.valid_until)}.
      </p>
    </section>
  );
}

/** One option's rows: a label and an amount each. */
function PriceList({ rows }: { rows: Row[] }) {
  return (
    <table className="quote-link-table quote-link-table--one">
      <tbody>
        {rows.map((row, index) => (
          <tr key={index} className={row.kind ? `quote-link-table__${row.kind}` : undefined}>
            <th scope="row">{row.label}</th>
            <td>{row.amounts[0]}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The embroidery alone: the design's total less its set-up (decimal text; the rounding of the money format absorbs the float's error). */
function embroidery(option: QuoteOption): string {
  return String(Number(option.design_total) - Number(option.one_off));
}

/** One option: the embroidery at its price a piece, the set-up, each line with its count, and the totals. */
function optionRows(quote: CustomerQuote, option: QuoteOption): Row[] {
  const money = (amount: string) => formatMoney(amount, quote.currency);
  const rows: Row[] = [
    {
      label: `Embroidery, ${counted(option.quantity, 'piece', 'pieces')} at ${money(option.per_piece)}`,
      amounts: [money(embroidery(option))],
    },
  ];
  if (Number(option.one_off) > 0) rows.push({ label: 'Set-up and digitising', amounts: [money(option.one_off)] });
  quote.lines.forEach((line, index) => {
    const count = line.quantity ?? option.quantity;
    rows.push({ label: `${line.description.trim()}, ${count} x ${money(line.unit_price)}`, amounts: [lineTotal(option, index, money)] });
  });
  return [...rows, ...totalRows(quote, [option])];
}

/** Several options, a column each: the price a piece, the embroidery, the set-up, each line, and the totals. */
function comparisonRows(quote: CustomerQuote): Row[] {
  const money = (amount: string) => formatMoney(amount, quote.currency);
  const each = (amount: (option: QuoteOption) => string) => quote.options.map((option) => money(amount(option)));
  const rows: Row[] = [
    { label: 'Price per piece', amounts: each((option) => option.per_piece) },
    { label: 'Embroidery', amounts: each(embroidery) },
  ];
  if (quote.options.some((option) => Number(option.one_off) > 0)) {
    rows.push({ label: 'Set-up and digitising', amounts: each((option) => option.one_off) });
  }
  quote.lines.forEach((line, index) => {
    const price = money(line.unit_price);
    // A line bought once for the job has its count; one a piece has its price a piece.
    const count = line.quantity ?? null;
    const label = count === null ? `${line.description.trim()}, ${price} each` : `${line.description.trim()}, ${count} x ${price}`;
    rows.push({ label, amounts: quote.options.map((option) => lineTotal(option, index, money)) });
  });
  return [...rows, ...totalRows(quote, quote.options)];
}

/** The total of the quote's line `index` at the option's quantity (blank where the server sent none). */
function lineTotal(option: QuoteOption, index: number, money: (amount: string) => string): string {
  const total = option.lines[index];
  return total === undefined ? '' : money(total);
}

function totalRows(quote: CustomerQuote, options: QuoteOption[]): Row[] {
  const each = (amount: (option: QuoteOption) => string) => options.map((option) => formatMoney(amount(option), quote.currency));
  return [
    { label: 'Subtotal', amounts: each((option) => option.subtotal), kind: 'subtotal' },
    { label: `Tax (${plainDecimal(quote.tax_percent)}%)`, amounts: each((option) => option.tax) },
    { label: 'Total', amounts: each((option) => option.total), kind: 'total' },
  ];
}
