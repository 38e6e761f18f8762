import type { MatchLabel } from '@/lib/core';

import { MATCH_LABELS, formatDeltaE } from '../labels';

export function MatchBadge({ label, deltaE }: { label: MatchLabel; deltaE: number }) {
  return (
    <span className={`match-badge match-badge--${label}`}>
      {MATCH_LABELS[label].text} <span className="match-badge__delta">ΔE {formatDeltaE(deltaE)}</span>
    </span>
  );
}
