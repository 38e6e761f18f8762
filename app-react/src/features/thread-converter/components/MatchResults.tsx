import type { Conversion } from '@/lib/core';

import { ownedKey } from '../api/get-owned-threads';

import { MatchBadge } from './MatchBadge';
import { Swatch } from './Swatch';

/**
 * Ranked matches per line, each shown beside the source colour so the eye can judge too; with
 * `owned` (the team's spools by thread), how many of each match the team has.
 */
export function MatchResults({ conversion, owned }: { conversion: Conversion; owned?: Map<string, number> | undefined }) {
  const { source } = conversion;
  return (
    <div className="match-results">
      {conversion.lines.map((line) => (
        <section key={line.line} className="card match-line" aria-labelledby={`matches-${line.line}`}>
          <h3 id={`matches-${line.line}`} className="match-line__title">
            {line.line_name}
          </h3>
          {line.matches.length === 0 ? (
            <p className="muted">No threads to compare in this line.</p>
          ) : (
            <ol className="match-list">
              {line.matches.map((match, index) => (
                <li key={`${match.thread.code}:${match.thread.hex}`} className="match">
                  <span className="match__pair" title={`${source.hex} beside ${match.thread.hex}`}>
                    <Swatch hex={source.hex} size="lg" />
                    <Swatch hex={match.thread.hex} size="lg" />
                  </span>
                  <span className="match__thread">
                    <span className="match__code">{match.thread.code}</span> <span className="match__name">{match.thread.name}</span>
                    {index === 0 && <span className="visually-hidden"> (best match)</span>}
                    {owned?.has(ownedKey(match.thread.line, match.thread.code)) && (
                      <span className="chip match__owned">
                        owned ×{Math.round((owned.get(ownedKey(match.thread.line, match.thread.code)) ?? 0) * 100) / 100}
                      </span>
                    )}
                    {match.thread.conflict && <span className="match__note">The chart lists this code with more than one colour.</span>}
                  </span>
                  <MatchBadge label={match.label} deltaE={match.delta_e} />
                </li>
              ))}
            </ol>
          )}
        </section>
      ))}
    </div>
  );
}
