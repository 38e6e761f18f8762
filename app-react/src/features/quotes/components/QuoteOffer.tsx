// The quote's prices as its customer reads them: one column per quantity offered, the design job,
// the set-up when shown apart, the shop's lines, tax and total (the chosen option marked).
import type { ExtraLine, OptionPrice } from '../api';
import { money, pieces } from '../format';

interface OfferProps {
  offer: OptionPrice[];
  lines: ExtraLine[];
  currency: string;
  taxPercent: string;
  /** The quantity the customer chose, once approved. */
  chosen?: number | undefined;
}

export function QuoteOffer({ offer, lines, currency, taxPercent, chosen }: OfferProps) {
  const cash = (amount: string) => money(amount, currency);
  const anyOneOff = offer.some((option) => Number(option.one_off) !== 0);
  return (
    <div className="quote-offer">
      <table>
        <caption className="visually-hidden">Prices for each quantity offered</caption>
        <thead>
          <tr>
            <td />
            {offer.map((option) => (
              <th key={option.quantity} scope="col" className="quote-offer__money">
                {pieces(option.quantity)}
                {option.quantity === chosen ? <span className="quote-offer__chosen">Chosen</span> : null}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          <Row label="Price a piece" values={offer.map((option) => cash(option.per_piece))} />
          <Row label="Embroidery" values={offer.map((option) => cash(String(Number(option.design_total) - Number(option.one_off))))} />
          {anyOneOff ? <Row label="Set-up and digitising" values={offer.map((option) => cash(option.one_off))} /> : null}
          {lines.map((line, index) => (
            <Row
              key={`${index}-${line.description}`}
              label={
                line.quantity == null
                  ? `${line.description}, ${cash(line.unit_price)} each`
                  : `${line.description}, ${line.quantity} x ${cash(line.unit_price)}`
              }
              values={offer.map((option) => (option.lines[index] === undefined ? '' : cash(option.lines[index])))}
            />
          ))}
          <Row label="Subtotal" values={offer.map((option) => cash(option.subtotal))} />
          <Row label={`Tax (${Number(taxPercent)}%)`} values={offer.map((option) => cash(option.tax))} />
          <Row label="Total" values={offer.map((option) => cash(option.total))} strong />
        </tbody>
      </table>
    </div>
  );
}

function Row({ label, values, strong = false }: { label: string; values: string[]; strong?: boolean }) {
  return (
    <tr className={strong ? 'quote-offer__total' : undefined}>
      <th scope="row">{label}</th>
      {values.map((value, index) => (
        <td key={index} className="quote-offer__money">
          {value}
        </td>
      ))}
    </tr>
  );
}
