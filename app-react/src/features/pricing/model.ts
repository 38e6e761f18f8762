// The calculator's plain logic, apart from React: the team's effective price list, the inputs
// as typed to and from the core's Job, the price-list form to and from Rates, and display.
import type { Amount, Job, PriceItem, PriceProblem, QuantityBreak, Rates } from '@/lib/core';
import { wholeNumber } from '@/lib/text';

import type { PricingMachine } from './api/get-machines';
import { type TeamSettings, settingKeys } from './types';

/** A team that has chosen no currency quotes in euros. */
export const DEFAULT_CURRENCY = 'EUR';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The price list a team quotes with: the core's defaults, then the `default_stitch_rate`
 * setting as the price per 1,000 stitches, then the `pricing` setting (any field it leaves out
 * keeps its default).
 */
export function effectiveRates(defaults: Rates, settings: TeamSettings): Rates {
  const rate = settings[settingKeys.defaultStitchRate];
  const pricing = settings[settingKeys.pricing];
  return {
    ...defaults,
    ...(typeof rate === 'number' || typeof rate === 'string' ? { price_per_thousand: String(rate) } : {}),
    ...(isRecord(pricing) ? (pricing as Partial<Rates>) : {}),
  };
}

export function teamCurrency(settings: TeamSettings): string {
  const currency = settings[settingKeys.currency];
  return typeof currency === 'string' && currency !== '' ? currency : DEFAULT_CURRENCY;
}

/** The team's preferred thread line's id, or '' for none. */
export function preferredLine(settings: TeamSettings): string {
  const line = settings[settingKeys.preferredThreadLine];
  return typeof line === 'string' ? line : '';
}

// ---- The job's inputs --------------------------------------------------------------------

/** No machine; or a team machine's id; or the machine saved with a reopened quote. */
export const NO_MACHINE = '';
export const SAVED_MACHINE = 'saved';

export interface JobFields {
  stitches: string;
  colours: string;
  quantity: string;
  locations: string;
  garmentCost: string;
  digitising: boolean;
  rush: boolean;
  oneOffFees: 'spread' | 'separate';
  machine: string;
  /** Stitches per minute, typed when the chosen machine has no speed on record. */
  speed: string;
}

export const emptyJob: JobFields = {
  stitches: '',
  // Every design has at least one colour; a file, or the person, says how many.
  colours: '1',
  quantity: '1',
  locations: '1',
  garmentCost: '',
  digitising: false,
  rush: false,
  oneOffFees: 'spread',
  machine: NO_MACHINE,
  speed: '',
};

/** A machine's speed for the estimate: its typical speed, else its maximum. */
export const machineSpeed = (machine: PricingMachine): number | null => machine.typical_spm ?? machine.max_spm ?? null;

const WHOLE = /^\d+$/;
const AMOUNT = /^\d+(\.\d+)?$/;

/** An amount as typed, with a decimal comma read as a point ("4,50" is 4.50), as the inventory
 * reads it. */
const typedAmount = (text: string): string => text.trim().replace(/^(\d+),(\d+)$/, '$1.$2');

/**
 * The core's Job from the typed fields, and the problems the core could not name itself (a
 * count that is not a whole number would not even reach it). An empty count goes to the core as
 * 0, so its own message ("at least 1") shows.
 */
export function jobOf(
  fields: JobFields,
  machines: PricingMachine[],
  savedMachine: Job['machine'] = null,
  threadM: string | null = null,
): { job: Job; problems: PriceProblem[] } {
  const problems: PriceProblem[] = [];
  const count = (field: string, text: string): number => {
    if (text.trim() === '') return 0;
    // Stitch counts are typed as machines show them: "12,500" as well as "12500".
    const value = wholeNumber(text);
    if (value === null) {
      problems.push({ field, code: 'not_whole', message: 'Enter a whole number.' });
      return 0;
    }
    return value;
  };
  const amount = (field: string, text: string): Amount => {
    const trimmed = typedAmount(text);
    if (trimmed === '') return '0';
    if (!AMOUNT.test(trimmed)) {
      problems.push({ field, code: 'not_amount', message: 'Enter an amount such as 4.50.' });
      return '0';
    }
    return trimmed;
  };
  let machine: Job['machine'] = null;
  if (fields.machine === SAVED_MACHINE) machine = savedMachine ?? null;
  else if (fields.machine !== NO_MACHINE) {
    const chosen = machines.find((candidate) => candidate.id === fields.machine);
    if (chosen) {
      const speed = machineSpeed(chosen) ?? count('job.machine.stitches_per_minute', fields.speed);
      machine = { stitches_per_minute: speed, heads: chosen.heads };
    }
  }
  const job: Job = {
    stitches: count('job.stitches', fields.stitches),
    colours: count('job.colours', fields.colours),
    quantity: count('job.quantity', fields.quantity),
    locations: count('job.locations', fields.locations),
    garment_cost: amount('job.garment_cost', fields.garmentCost),
    digitising: fields.digitising,
    rush: fields.rush,
    one_off_fees: fields.oneOffFees,
    machine,
    // The design's thread by the usage model; left out, the core estimates it from the stitches.
    ...(threadM ? { thread_m: threadM } : {}),
  };
  return { job, problems };
}

/** A saved job back into the fields; its machine is the saved one (it has no id). */
export function fieldsOfJob(job: Job): JobFields {
  return {
    stitches: String(job.stitches),
    colours: String(job.colours),
    quantity: String(job.quantity),
    locations: String(job.locations ?? 1),
    garmentCost: job.garment_cost === undefined || Number(job.garment_cost) === 0 ? '' : job.garment_cost,
    digitising: job.digitising ?? false,
    rush: job.rush ?? false,
    oneOffFees: job.one_off_fees ?? 'spread',
    machine: job.machine ? SAVED_MACHINE : NO_MACHINE,
    speed: '',
  };
}

/** Problems by field; the first message of a field wins. */
export function problemsByField(problems: PriceProblem[]): Map<string, string> {
  const byField = new Map<string, string>();
  for (const problem of problems) if (!byField.has(problem.field)) byField.set(problem.field, problem.message);
  return byField;
}

// ---- The price list ----------------------------------------------------------------------

export type BreakKind = 'discount_percent' | 'price_per_thousand';
export type ProfitKind = 'markup_percent' | 'margin_percent';

export interface BreakFields {
  minQuantity: string;
  kind: BreakKind;
  value: string;
}

/** Every Rates field as typed (all text, so an input can be half typed). */
export interface RatesFields {
  price_per_thousand: string;
  minimum_stitches: string;
  quantity_breaks: BreakFields[];
  setup_fee: string;
  digitising_fee: string;
  included_colours: string;
  colour_fee: string;
  extra_location_fee: string;
  backing_cost: string;
  thread_metres_per_thousand: string;
  thread_cost_per_1000_m: string;
  rush_percent: string;
  profitKind: ProfitKind;
  profit: string;
  tax_percent: string;
  efficiency_percent: string;
  hoop_minutes: string;
}

/** The plain fields of Rates (all but the breaks and the profit), in the form's order. */
export const RATE_FIELDS = [
  ['price_per_thousand', 'Price per 1,000 stitches', 'amount'],
  ['minimum_stitches', 'Minimum stitches', 'count'],
  ['setup_fee', 'Set-up fee (per job)', 'amount'],
  ['digitising_fee', 'Digitising fee (per job)', 'amount'],
  ['included_colours', 'Colours included', 'count'],
  ['colour_fee', 'Fee per extra colour (per piece)', 'amount'],
  ['extra_location_fee', 'Fee per extra location (per piece)', 'amount'],
  ['backing_cost', 'Backing (per piece, at cost)', 'amount'],
  ['thread_metres_per_thousand', 'Thread metres per 1,000 stitches', 'amount'],
  ['thread_cost_per_1000_m', 'Thread cost per 1,000 m', 'amount'],
  ['rush_percent', 'Rush surcharge (%)', 'amount'],
  ['tax_percent', 'Tax (%)', 'amount'],
  ['efficiency_percent', 'Machine efficiency (%)', 'amount'],
  ['hoop_minutes', 'Hooping minutes per piece', 'amount'],
] as const satisfies readonly (readonly [keyof RatesFields & keyof Rates, string, 'amount' | 'count'])[];

export function ratesFieldsOf(rates: Rates): RatesFields {
  const profitKind: ProfitKind = 'margin_percent' in rates.profit ? 'margin_percent' : 'markup_percent';
  const profit = 'margin_percent' in rates.profit ? rates.profit.margin_percent : rates.profit.markup_percent;
  const fields = { quantity_breaks: rates.quantity_breaks.map(breakFieldsOf), profitKind, profit } as RatesFields;
  for (const [key] of RATE_FIELDS) fields[key] = String(rates[key]);
  return fields;
}

function breakFieldsOf(row: QuantityBreak): BreakFields {
  return 'price_per_thousand' in row
    ? { minQuantity: String(row.min_quantity), kind: 'price_per_thousand', value: row.price_per_thousand }
    : { minQuantity: String(row.min_quantity), kind: 'discount_percent', value: row.discount_percent };
}

/**
 * Rates from the form, and the problems of fields that are not numbers at all (the core then
 * checks the ranges). Problems name fields as the core does: "rates.setup_fee".
 */
export function ratesOf(fields: RatesFields): { rates: Rates; problems: PriceProblem[] } {
  const problems: PriceProblem[] = [];
  const check = (field: string, text: string, kind: 'amount' | 'count'): string => {
    const trimmed = kind === 'amount' ? typedAmount(text) : String(wholeNumber(text) ?? '');
    if (!(kind === 'count' ? WHOLE : AMOUNT).test(trimmed)) {
      problems.push({
        field,
        code: 'not_a_number',
        message: kind === 'count' ? 'Enter a whole number.' : 'Enter a number such as 2.50.',
      });
      return '0';
    }
    return trimmed;
  };
  const rates = {
    quantity_breaks: fields.quantity_breaks.map((row, n) => {
      const field = `rates.quantity_breaks[${n}]`;
      const min_quantity = Number(check(`${field}.min_quantity`, row.minQuantity, 'count'));
      const value = check(`${field}.${row.kind}`, row.value, 'amount');
      return row.kind === 'price_per_thousand' ? { min_quantity, price_per_thousand: value } : { min_quantity, discount_percent: value };
    }),
    profit:
      fields.profitKind === 'margin_percent'
        ? { margin_percent: check('rates.profit.margin_percent', fields.profit, 'amount') }
        : { markup_percent: check('rates.profit.markup_percent', fields.profit, 'amount') },
  } as Rates;
  for (const [key, , kind] of RATE_FIELDS) {
    const value = check(`rates.${key}`, fields[key], kind);
    (rates as unknown as Record<string, unknown>)[key] = kind === 'count' ? Number(value) : value;
  }
  return { rates, problems };
}

/**
 * The team-settings change that stores `rates`: the price per 1,000 stitches is the
 * `default_stitch_rate` number (the team page edits it too), the rest is `pricing` (the server
 * refuses a price per 1,000 there).
 */
export function settingsChangesOf(rates: Rates): TeamSettings {
  const { price_per_thousand, ...pricing } = rates;
  return { [settingKeys.defaultStitchRate]: Number(price_per_thousand), [settingKeys.pricing]: pricing };
}

// ---- Display -----------------------------------------------------------------------------

export const itemLabels: Record<PriceItem, string> = {
  stitches: 'Stitches',
  colours: 'Extra colours',
  extra_locations: 'Extra locations',
  garment: 'Garment',
  backing: 'Backing',
  thread: 'Thread',
  profit: 'Markup on materials',
  setup_fee: 'Set-up fee',
  digitising_fee: 'Digitising fee',
  rush: 'Rush surcharge',
  tax: 'Tax',
};

/** The label of a breakdown line; profit says whether it is a markup or a margin. */
export function itemLabel(item: PriceItem, rates: Pick<Rates, 'profit'>): string {
  if (item === 'profit' && 'margin_percent' in rates.profit) return 'Margin on materials';
  return itemLabels[item];
}

/** Formats amounts in `currency` with `decimals` places; an unknown code is written after. */
export function moneyFormat(currency: string, decimals: number): (amount: Amount) => string {
  try {
    const format = new Intl.NumberFormat(undefined, {
      style: 'currency',
      currency,
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    });
    return (amount) => format.format(Number(amount));
  } catch {
    const format = new Intl.NumberFormat(undefined, { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
    return (amount) => `${format.format(Number(amount))} ${currency}`;
  }
}

const numbers = new Intl.NumberFormat();
export const formatCount = (value: number) => numbers.format(value);
export const formatDecimal = (value: Amount, decimals: number) =>
  new Intl.NumberFormat(undefined, { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(Number(value));
