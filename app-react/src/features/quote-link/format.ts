// How the customer's quote page writes money, dates and counts: as the quote's PDF and e-mails
// do (crates/server/src/pdf.rs, bobbin_core::quote::money), in English with the currency's own
// decimals, so the page and the PDF downloaded from it read alike. Not the browser's locale,
// which the app's own pages use for the team's figures: a quote is a document the shop wrote in
// one language, and "€1.063,20" beside "Total" would read as a different amount to some.

const count = new Intl.NumberFormat('en');
const tenth = new Intl.NumberFormat('en', { maximumFractionDigits: 1, useGrouping: false });
// In UTC, as the server writes the dates (an approval's time included, as the PDF does), so a
// customer in another time zone reads the day the shop reads.
const longDay = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** An amount (decimal text) in `currency`: "€1,063.20", "¥1,200", "CHF 12.00"; an unknown code is written before it. */
export function formatMoney(amount: string, currency: string): string {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).format(Number(amount));
  } catch {
    return `${currency} ${amount}`;
  }
}

/** "6 January 2027", from `YYYY-MM-DD` or an RFC 3339 time. */
export function longDate(value: string): string {
  return longDay.format(new Date(value));
}

/** "1 piece", "1,200 pieces". */
export function counted(value: number, one: string, many: string): string {
  return `${count.format(value)} ${value === 1 ? one : many}`;
}

/** A length to a tenth, without a trailing ".0": "90", "62.5". */
export function millimetres(value: number): string {
  return tenth.format(value);
}

/** A decimal's text without trailing zeros: "20.00" -> "20", "7.50" -> "7.5". */
export function plainDecimal(text: string): string {
  return String(Number(text));
}
