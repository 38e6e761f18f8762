// How quotes read in the shop's pages: money in the quote's currency with the decimals the server
// gave, days in long form, statuses in words.
import type { QuoteStatus } from './api';

/** `"1009.2"` in EUR: "€1,009.20", with the currency's own decimals (ISO 4217's minor unit). */
export function money(amount: string, currency: string): string {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).format(Number(amount));
  } catch {
    return `${currency} ${amount}`;
  }
}

const longDate = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** `"2027-01-06"`: "6 January 2027". */
export function day(isoDate: string): string {
  return longDate.format(new Date(`${isoDate}T00:00:00Z`));
}

const moment = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A moment of the history, in the person's own time zone. */
export function when(timestamp: string): string {
  return moment.format(new Date(timestamp));
}

export const STATUS_LABELS: Record<QuoteStatus, string> = {
  draft: 'Draft',
  sent: 'Sent',
  viewed: 'Viewed',
  approved: 'Approved',
  declined: 'Declined',
  expired: 'Expired',
};

export function pieces(count: number): string {
  return `${count.toLocaleString('en')} ${count === 1 ? 'piece' : 'pieces'}`;
}
