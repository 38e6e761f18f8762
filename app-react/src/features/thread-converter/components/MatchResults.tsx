import type { Conversion, Doubt, Match } from '@/lib/core';

import { ownedKey } from '../api/get-owned-threads';

import { MatchBadge } from './MatchBadge';
import { Swatch } from './Swatch';

/** Why a thread's chart colour is in doubt: its matches are then never labelled better than similar. */
export const DOUBTS: Record<Doubt, string> = {
  'sources-disagree': 'Colour uncertain: the chart lists this code with more than one colour.',
  'name-disagrees': 'Colour uncertain: its name says another colour than its chart.',
  placeholder: 'Colour uncertain: its chart gives pure white or black, which its name does not say.',
};

interface Props {
  conversion: Conversion;
  /** The team's spools by thread (`ownedKey`), when only the threads it owns are converted to. */
  owned?: Map<string, number> | undefined;
  /** With `owned`: the same conversion over the whole catalogue, for the closest thread to buy. */
  catalogue?: Conversion | undefined;
}

/**
 * Ranked matches per line, each shown beside the source colour so the eye can judge too; with
 * `owned`, how many of each match the team has, and, where the best it owns is worse than
 * similar, "Nothing close in stock" and the closest catalogue thread to buy.
 */
export function MatchResults({ conversion, owned, catalogue }: Props) {
  const { source } = conversion;
  return (
    <div className="match-results">
      {conversion.lines.map((line) => {
        const best = line.matches[0];
        const closest = catalogue?.lines.find((other) => other.line === line.line)?.matches[0];
        // Worse than similar (or nothing owned in the line), and the catalogue has a thread the
        // team does not own yet.
        const toBuy =
          closest && (!best || best.label === 'poor') && !owned?.has(ownedKey(closest.thread.line, closest.thread.code))
            ? closest
            : undefined;
        return (
          <section key={line.line} className="card match-line" aria-labelledby={`matches-${line.line}`}>
            <h3 id={`matches-${line.line}`} className="match-line__title">
              {line.line_name}
            </h3>
            {toBuy && (
              <div className="match-line__to-buy" role="group" aria-labelledby={`to-buy-${line.line}`}>
                <p className="match-line__none">Nothing close in stock.</p>
                <p id={`to-buy-${line.line}`} className="match-line__to-buy-title">
                  Closest to buy
                </p>
                <div className="match">
                  <MatchRow match={toBuy} sourceHex={source.hex} />
                </div>
              </div>
            )}
            {line.matches.length === 0 ? (
              !toBuy && <p className="muted">{owned ? 'Your team owns no thread of this line.' : 'No threads to compare in this line.'}</p>
            ) : (
              <>
                {toBuy && <p className="match-line__owned-title">Closest you own</p>}
                <ol className="match-list">
                  {line.matches.map((match, index) => (
                    <li key={`${match.thread.code}:${match.thread.hex}`} className="match">
                      <MatchRow match={match} sourceHex={source.hex} best={index === 0 && !toBuy} owned={owned} />
                    </li>
                  ))}
                </ol>
              </>
            )}
          </section>
        );
      })}
    </div>
  );
}

/** One match: the two colours side by side, the thread's name (its code where the chart gives no
 * name) then its code, how many spools the team has, and the label with ΔE. */
function MatchRow({
  match,
  sourceHex,
  best = false,
  owned,
}: {
  match: Match;
  sourceHex: string;
  best?: boolean;
  owned?: Map<string, number> | undefined;
}) {
  const { thread } = match;
  const spools = owned?.get(ownedKey(thread.line, thread.code));
  return (
    <>
      <span className="match__pair" title={`${sourceHex} beside ${thread.hex}`}>
        <Swatch hex={sourceHex} size="lg" />
        <Swatch hex={thread.hex} size="lg" />
      </span>
      <span className="match__thread">
        <strong className="match__name">{thread.name || thread.code}</strong>{' '}
        {thread.name && <span className="match__code">{thread.code}</span>}
        {best && (
          <>
            {' '}
            <span className="match__best">Best match</span>
          </>
        )}
        {spools !== undefined && <span className="chip match__owned">owned ×{Math.round(spools * 100) / 100}</span>}
        {thread.doubt && <span className="match__note">{DOUBTS[thread.doubt]}</span>}
        {match.note && <span className="match__note">{match.note}</span>}
      </span>
      <MatchBadge label={match.label} deltaE={match.delta_e} />
    </>
  );
}
