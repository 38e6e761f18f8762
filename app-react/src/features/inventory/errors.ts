// A failed inventory call, split for where the person looks: messages the server gave for
// fields shown (next to those inputs), and one message for the form's alert.
import { ApiError } from '@/lib/api-client';

export interface FormProblems {
  fields: Record<string, string>;
  alert: string | null;
}

export const noProblems: FormProblems = { fields: {}, alert: null };

/**
 * `error` as field messages for the `shown` fields, and an alert for the rest: the server's
 * message, plus the messages of fields this form has no input for (they would be lost otherwise).
 */
export function problemsOf(error: unknown, shown: readonly string[] | ((field: string) => boolean), fallback: string): FormProblems {
  const isShown = typeof shown === 'function' ? shown : (field: string) => shown.includes(field);
  if (!(error instanceof ApiError)) {
    return { fields: {}, alert: error instanceof Error && error.message ? error.message : fallback };
  }
  const fields: Record<string, string> = {};
  const others: string[] = [];
  for (const [field, message] of Object.entries(error.fields ?? {})) {
    if (isShown(field)) fields[field] = message;
    else others.push(message);
  }
  const base = error.statusMessage || error.message || fallback;
  if (Object.keys(fields).length > 0 && others.length === 0) {
    return { fields, alert: 'Some fields need a change: see the messages next to them.' };
  }
  return { fields, alert: [base, ...others].join(' ') };
}

/** A typed number: '' is none, anything else must be a finite number. */
export function numberOf(raw: string): number | null | typeof NOT_A_NUMBER {
  const text = raw.trim().replace(',', '.');
  if (text === '') return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : NOT_A_NUMBER;
}

export const NOT_A_NUMBER = Symbol('not a number');
