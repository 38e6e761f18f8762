import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';

import { LoadingStatus } from '@/components/LoadingStatus';
import { pageTitle } from '@/config/paths';
import { type Converter, type Source, converterQueryOptions } from '@/lib/core';

import { ownedCounts, useOwnedThreads } from './api/get-owned-threads';
import { BulkConvert } from './components/BulkConvert';
import { DOUBTS, MatchResults } from './components/MatchResults';
import { SourcePicker } from './components/SourcePicker';
import { Swatch } from './components/Swatch';
import { TargetLines } from './components/TargetLines';
import { MATCH_LABELS } from './labels';

/** The lines searched until others are chosen: the team's preferred line, else these. */
const DEFAULT_TARGETS = ['madeira-polyneon', 'isacord-polyester', 'sulky-rayon'];
const DEFAULT_BULK_TARGET = 'madeira-polyneon';
const MATCHES = 3;

/** The source and targets live in the URL (`?thread=line:code` or `?hex=RRGGBB`, `&to=a,b`), so a
 * conversion can be bookmarked or sent to a colleague. */
function readSource(params: URLSearchParams): Source | null {
  const thread = params.get('thread');
  if (thread?.includes(':')) {
    const at = thread.indexOf(':');
    return { thread: { line: thread.slice(0, at), code: thread.slice(at + 1) } };
  }
  const hex = params.get('hex');
  return hex ? { hex: hex.startsWith('#') ? hex : `#${hex}` } : null;
}

function writeSource(params: URLSearchParams, source: Source) {
  params.delete('thread');
  params.delete('hex');
  if ('thread' in source) params.set('thread', `${source.thread.line}:${source.thread.code}`);
  else if ('hex' in source) params.set('hex', source.hex.replace(/^#/, ''));
}

/**
 * `/tools/thread-converter`. `teamId`: the current team, whose inventory "only threads we own"
 * reads ('' without one: the option is not offered); `preferredLine`: its preferred line, the
 * default target ('' for none).
 */
export function ThreadConverterPage({ teamId = '', preferredLine = '' }: { teamId?: string; preferredLine?: string }) {
  const converter = useQuery(converterQueryOptions);
  return (
    <>
      <title>{pageTitle('Thread Converter')}</title>
      <h1>Thread converter</h1>
      <p className="lead">Find the closest thread in another brand.</p>
      {converter.isPending && (
        <p role="status" className="muted">
          Loading the thread catalogue…
        </p>
      )}
      {converter.isError && (
        <p role="alert" className="field__error">
          The thread catalogue could not be loaded: {converter.error.message} Reload the page to try again.
        </p>
      )}
      {converter.data && <ConverterTool converter={converter.data} teamId={teamId} preferredLine={preferredLine} />}
    </>
  );
}

function ConverterTool({ converter, teamId, preferredLine }: { converter: Converter; teamId: string; preferredLine: string }) {
  const [params, setParams] = useSearchParams();
  const lines = useMemo(() => converter.lines(), [converter]);
  // Read once per address (`params` changes with it), so the conversion below reruns only when
  // the request does.
  const source = useMemo(() => readSource(params), [params]);
  // Held in state as well as the URL: the URL updates in a transition, and the checkboxes must
  // show a change at once. null until chosen (here or in the address): then the default.
  const [chosenTargets, setTargets] = useState(() => params.get('to')?.split(',').filter(Boolean) ?? null);
  const targets = useMemo(
    () => chosenTargets ?? (lines.some((line) => line.id === preferredLine && line.kind === 'thread') ? [preferredLine] : DEFAULT_TARGETS),
    [chosenTargets, lines, preferredLine],
  );

  // In state as well as the URL, like the targets: the checkbox must show a change at once.
  const [ownedWanted, setOwnedWanted] = useState(() => params.get('owned') === '1');
  const onlyOwned = teamId !== '' && ownedWanted;
  const ownedThreads = useOwnedThreads(teamId, onlyOwned);
  const owned = useMemo(() => (ownedThreads.data ? ownedCounts(ownedThreads.data) : undefined), [ownedThreads.data]);

  const outcome = useMemo(() => {
    if (!source || targets.length === 0) return null;
    // Until the team's threads have loaded, nothing to compare with.
    if (onlyOwned && !ownedThreads.data) return null;
    try {
      const candidates = onlyOwned ? ownedThreads.data?.map(({ line, code }) => ({ line, code })) : undefined;
      return {
        conversion: converter.convert({ from: source, to: targets, matches: MATCHES, ...(candidates ? { candidates } : {}) }),
        // Among the threads we own, the closest of the whole catalogue too: what to buy when
        // nothing owned is close.
        catalogue: candidates ? converter.convert({ from: source, to: targets, matches: 1 }) : undefined,
      };
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error) };
    }
  }, [converter, source, targets, onlyOwned, ownedThreads.data]);

  function update(change: (next: URLSearchParams) => void) {
    const next = new URLSearchParams(params);
    change(next);
    setParams(next, { replace: true });
  }

  function chooseTargets(ids: string[]) {
    setTargets(ids);
    update((next) => next.set('to', ids.join(',')));
  }

  const resolved = outcome && 'conversion' in outcome ? outcome.conversion.source : null;
  return (
    <>
      <section className="converter" aria-labelledby="convert-one">
        <h2 id="convert-one">Convert a colour</h2>
        <div className="converter__grid">
          <div className="converter__inputs">
            <SourcePicker
              converter={converter}
              lines={lines}
              source={source}
              resolved={resolved ?? null}
              onChange={(next) => update((p) => writeSource(p, next))}
            />
          </div>
          <div className="converter__results" aria-live="polite">
            {!source && <p className="muted">Choose a thread or type a colour to see its matches.</p>}
            {teamId !== '' && (
              <label className="check">
                <input
                  type="checkbox"
                  checked={onlyOwned}
                  onChange={(event) => {
                    const on = event.target.checked;
                    setOwnedWanted(on);
                    update((next) => (on ? next.set('owned', '1') : next.delete('owned')));
                  }}
                />{' '}
                Only threads we own
              </label>
            )}
            {onlyOwned && <LoadingStatus query={ownedThreads}>Loading your team's threads…</LoadingStatus>}
            {onlyOwned && ownedThreads.isError && (
              <p role="alert" className="field__error">
                Your team's threads could not be loaded: {ownedThreads.error.message}
              </p>
            )}
            {onlyOwned && ownedThreads.data?.length === 0 && <p className="muted">Your team's inventory has no catalogue threads yet.</p>}
            {source && targets.length === 0 && <p className="muted">Choose at least one line to search.</p>}
            {outcome && 'error' in outcome && (
              <p role="alert" className="field__error">
                {outcome.error}
              </p>
            )}
            {resolved && (
              <p className="converter__source">
                <Swatch hex={resolved.hex} size="lg" />
                <span>
                  {resolved.thread ? (
                    <>
                      <strong className="match__name">{resolved.thread.name || resolved.thread.code}</strong> {resolved.thread.line_name}{' '}
                      {resolved.thread.name && resolved.thread.code}
                    </>
                  ) : (
                    <strong className="match__name">{resolved.hex}</strong>
                  )}
                  {resolved.thread?.doubt && (
                    <span className="match__note">{DOUBTS[resolved.thread.doubt]} No match from it is better than similar.</span>
                  )}
                </span>
              </p>
            )}
            {outcome && 'conversion' in outcome && (
              <MatchResults conversion={outcome.conversion} owned={owned} catalogue={outcome.catalogue} />
            )}
          </div>
          {/* After the results, so on a phone the matches come first. */}
          <MatchGuide />
          <TargetLines lines={lines} selected={targets} onChange={chooseTargets} />
        </div>
      </section>
      <section className="converter" aria-labelledby="convert-list">
        <h2 id="convert-list">Convert a list</h2>
        <BulkConvert converter={converter} lines={lines} defaultTo={targets[0] ?? DEFAULT_BULK_TARGET} />
      </section>
    </>
  );
}

/** How to read a match: what ΔE and the labels mean, and how blacks, whites and greys are matched
 * (docs/behaviour.md, "Catalogue and converter"). */
function MatchGuide() {
  return (
    <section className="converter__guide" aria-labelledby="match-guide">
      <h3 id="match-guide">Reading the matches</h3>
      <p>
        Each match shows its CIEDE2000 colour difference (ΔE): most cross-brand matches are similar rather than identical, so compare the
        swatches and keep a spool card at hand. Runs on this device, also offline.
      </p>
      <p>
        Charts give blacks, whites and greys least reliably, so a black is matched to a black (a white to a white, a grey to a grey) unless
        a colourful thread is much closer, and between two of them a difference in lightness counts half.
      </p>
      <dl className="legend" aria-label="What the labels mean">
        {Object.entries(MATCH_LABELS).map(([key, label]) => (
          <div key={key}>
            <dt>{label.text}</dt>
            <dd>{label.range}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
