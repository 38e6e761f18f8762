// What the saved-quotes API answers, checked before a page shows it. The server checks a quote's
// design and rates when it is saved, but quotes saved before it did may hold a design of another
// shape (issue 48: `blocks: "x"` replaced the whole app with the error page), and a copy kept in
// this browser may be older still. A quote that does not fit is refused here with a plain message,
// which the page shows where the quote would be.
import type { QuotePage, SavedQuote } from './types';

/** A saved quote, or a page of them, that the calculator cannot show. */
export class UnreadableQuote extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnreadableQuote';
  }
}

export const UNREADABLE_QUOTE =
  'This saved quote cannot be shown: it was saved in a form this calculator cannot read. Its figures are still in the list of saved quotes; to quote the job again, enter it anew and save it.';
export const UNREADABLE_QUOTES = 'The saved quotes could not be shown: the server answered in a form this page cannot read.';

type Check = (value: unknown) => boolean;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isString: Check = (value) => typeof value === 'string';
const isBoolean: Check = (value) => typeof value === 'boolean';
const isCount: Check = (value) => Number.isSafeInteger(value) && (value as number) >= 0;
const isLength: Check = (value) => typeof value === 'number' && Number.isFinite(value) && value >= 0;
const isHex: Check = (value) => typeof value === 'string' && /^#[0-9a-f]{6}$/i.test(value);
const oneOf =
  (...choices: unknown[]): Check =>
  (value) =>
    choices.includes(value);
const nullable =
  (check: Check): Check =>
  (value) =>
    value === null || check(value);
const optional =
  (check: Check): Check =>
  (value) =>
    value === undefined || check(value);
const listOf =
  (check: Check): Check =>
  (value) =>
    Array.isArray(value) && value.every(check);
/** An object with at least these fields, each passing its check (a missing field is `undefined`). */
const shape =
  (fields: Record<string, Check>): Check =>
  (value) =>
    isRecord(value) && Object.entries(fields).every(([name, check]) => check(value[name]));

const summaryFields = {
  id: isString,
  name: isString,
  currency: isString,
  quantity: isCount,
  per_piece: isString,
  total: isString,
  created_by_email: nullable(isString),
  created_by_name: optional(nullable(isString)),
  created_at: isString,
};

const isThread = shape({ colour: isHex, name: nullable(isString), blocks: listOf(isCount) });

/** A design's figures as the calculator shows them (lib/core's DesignSummary). */
const isDesign = shape({
  file_name: isString,
  id: optional(isString),
  summary: shape({
    format: oneOf('dst', 'pes', 'jef', 'exp', 'vp3'),
    stitches: isCount,
    jumps: isCount,
    trims: nullable(isCount),
    colour_changes: isCount,
    colours: isCount,
    width_mm: isLength,
    height_mm: isLength,
    thread_colours: listOf(isHex),
    threads: optional(listOf(isThread)),
    threads_needed: optional(isCount),
  }),
});

/** The job's fields the calculator fills its inputs from (lib/core's Job); the core checks the
 * price list itself when it prices, and says what is wrong in words. */
const isJob = shape({
  stitches: isCount,
  colours: isCount,
  quantity: isCount,
  locations: optional(isCount),
  garment_cost: optional(isString),
  digitising: optional(isBoolean),
  rush: optional(isBoolean),
  one_off_fees: optional(oneOf('spread', 'separate')),
  machine: optional(nullable(shape({ stitches_per_minute: isCount, heads: isCount }))),
});

const isSavedQuote = shape({
  ...summaryFields,
  rates: isRecord,
  job: isJob,
  design: nullable(isDesign),
  // Never shown: the calculator prices the saved inputs again.
  result: isRecord,
});

const isQuotePage = shape({ quotes: listOf(shape(summaryFields)), total: isCount, page: isCount, per_page: isCount });

/** `value` as a saved quote, or [`UnreadableQuote`] when it is not of that shape. A quote saved
 * without a design answers `design: null`. */
export function parseSavedQuote(value: unknown): SavedQuote {
  if (isRecord(value) && value['design'] === undefined) value = { ...value, design: null };
  if (!isSavedQuote(value)) throw new UnreadableQuote(UNREADABLE_QUOTE);
  return value as SavedQuote;
}

/** `value` as a page of saved quotes, or [`UnreadableQuote`]. */
export function parseQuotePage(value: unknown): QuotePage {
  if (!isQuotePage(value)) throw new UnreadableQuote(UNREADABLE_QUOTES);
  return value as QuotePage;
}
