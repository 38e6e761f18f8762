// Sentences built around names people typed: "The team is now called Stitch & Thread Co."
// must not end in two full stops.

/** `text` ending in one full stop: none is added after a `.`, `!` or `?` it already ends with. */
export function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** A whole number as people type counters: digits, grouped in threes by commas, spaces, dots or
 * apostrophes ("1,250,000", "1 250 000", "1.250.000", "1'250'000"), or ungrouped. */
const GROUPED_WHOLE = /^\d{1,3}(?:([,. '\u00a0\u202f])\d{3})(?:\1\d{3})*$/;

/** The whole number `text` holds, or null when it holds something else (`''` too). */
export function wholeNumber(text: string): number | null {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  if (GROUPED_WHOLE.test(trimmed)) return Number(trimmed.replace(/\D/g, ''));
  return null;
}

/** "1 thread", "3 threads": a count with its noun, never "thread(s)". `plural` defaults to the
 * noun with an s. */
export function counted(count: number, noun: string, plural = `${noun}s`): string {
  return `${count.toLocaleString('en')} ${count === 1 ? noun : plural}`;
}
