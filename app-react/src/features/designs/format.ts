// How the library says sizes and counts.
import type { DesignSummary } from '@/lib/core';

const whole = new Intl.NumberFormat('en');
const oneDecimal = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });
const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export const formatCount = (value: number) => whole.format(value);

/** A file's size: "820 bytes", "14.2 KB", "3.1 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${whole.format(bytes)} ${bytes === 1 ? 'byte' : 'bytes'}`;
  if (bytes < 1_000_000) return `${oneDecimal.format(bytes / 1000)} KB`;
  return `${oneDecimal.format(bytes / 1_000_000)} MB`;
}

/** The stitches' extent: "80.5 × 61.2 mm". */
export function formatExtent(summary: Pick<DesignSummary, 'width_mm' | 'height_mm'>): string {
  return `${oneDecimal.format(summary.width_mm)} × ${oneDecimal.format(summary.height_mm)} mm`;
}

/** A saved amount in its currency: "€356.00" (the amount's own decimals). */
export function formatMoney(amount: string, currency: string): string {
  const decimals = (amount.split('.')[1] ?? '').length;
  try {
    return new Intl.NumberFormat(undefined, {
      style: 'currency',
      currency,
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    }).format(Number(amount));
  } catch {
    return `${amount} ${currency}`;
  }
}

export function formatWhen(iso: string): string {
  return when.format(new Date(iso));
}

export const formatNames: Record<DesignSummary['format'], string> = { dst: 'DST', pes: 'PES', jef: 'JEF', exp: 'EXP', vp3: 'VP3' };

/** The design's distinct colours in order of first use (none for formats that store none). */
export function coloursOf(summary: DesignSummary): string[] {
  return [...new Set(summary.thread_colours.map((colour) => colour.toLowerCase()))];
}

/** What the grid says of a file that is not a readable design. */
export const NOT_READABLE = 'Not a design Bobbin can read';
export const PLAIN_FILE = 'Plain file';
