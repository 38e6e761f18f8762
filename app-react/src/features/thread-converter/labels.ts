import type { MatchLabel } from '@/lib/core';

/** How each label reads, with the CIEDE2000 range the core assigns it (crates/core/src/convert.rs). */
export const MATCH_LABELS: Record<MatchLabel, { text: string; range: string }> = {
  indistinguishable: { text: 'Indistinguishable', range: 'ΔE under 1' },
  close: { text: 'Close', range: 'ΔE 1 to 2' },
  similar: { text: 'Similar', range: 'ΔE 2 to 5' },
  poor: { text: 'Poor match', range: 'ΔE 5 or more' },
};

/** ΔE with one decimal: finer digits would claim a precision the charts do not have. */
export function formatDeltaE(deltaE: number): string {
  return deltaE.toFixed(1);
}
