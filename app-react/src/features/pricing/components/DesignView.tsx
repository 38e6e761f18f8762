// A design's figures and a drawing of its stitches, with the threads it needs: each named, linked
// to the thread converter, and said to be in stock or not.
import { type UseQueryResult, useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Link } from 'react-router';

import { LibraryPreview } from '@/components/LibraryPreview';
import { designPath, paths } from '@/config/paths';
import { type DesignPreview, type DesignSummary, type DesignThread, converterQueryOptions } from '@/lib/core';

import { type ClosestThread, useClosestThreads } from '../api/get-closest-threads';
import { formatCount } from '../model';

/** For blocks whose file stores no colour (DST, JEF, EXP): neutral, told apart from each other. */
const NEUTRALS = ['#44403c', '#a8a29e', '#1e3a8a', '#78716c', '#0f766e', '#57534e', '#9f1239', '#d6d3d1'];

const formatNames: Record<DesignSummary['format'], string> = { dst: 'DST', pes: 'PES', jef: 'JEF', exp: 'EXP', vp3: 'VP3' };

const mm = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });
const oneDecimal = new Intl.NumberFormat(undefined, { minimumFractionDigits: 1, maximumFractionDigits: 1 });

export function DesignView({
  fileName,
  summary,
  preview,
  library,
  teamId,
  preferredLine,
}: {
  fileName: string;
  summary: DesignSummary;
  preview: DesignPreview | null;
  /** The design's id in the team's library (and its ETag where known): the server's preview. */
  library: { id: string; etag: string } | null;
  teamId: string;
  /** The team's preferred thread line's id ('' for none): names threads the file does not. */
  preferredLine: string;
}) {
  return (
    <div className="design-view">
      <div className="design-view__preview">
        {preview ? (
          <StitchPreview preview={preview} />
        ) : library && teamId ? (
          <LibraryPreview teamId={teamId} designId={library.id} etag={library.etag} name={fileName} />
        ) : (
          <p className="muted">No preview: this design was read from a file on a device, not kept in the library.</p>
        )}
      </div>
      <dl className="design-view__figures" aria-label={`Design ${fileName}`}>
        <div>
          <dt>File</dt>
          <dd>{library ? <Link to={designPath(library.id)}>{fileName}</Link> : fileName}</dd>
        </div>
        <div>
          <dt>Format</dt>
          <dd>{formatNames[summary.format]}</dd>
        </div>
        <div>
          <dt>Stitches</dt>
          <dd>{formatCount(summary.stitches)}</dd>
        </div>
        <div>
          <dt>Colour blocks</dt>
          <dd>{formatCount(summary.colours)}</dd>
        </div>
        {summary.threads_needed === undefined ? null : (
          <div>
            <dt>Threads</dt>
            <dd>{formatCount(summary.threads_needed)}</dd>
          </div>
        )}
        <div>
          <dt>Trims</dt>
          <dd>{summary.trims === null ? 'Not recorded' : formatCount(summary.trims)}</dd>
        </div>
        <div>
          <dt>Size</dt>
          <dd>
            {mm.format(summary.width_mm)} × {mm.format(summary.height_mm)} mm
          </dd>
        </div>
      </dl>
      {summary.thread_colours.length > 0 ? <DesignThreads summary={summary} teamId={teamId} preferredLine={preferredLine} /> : null}
    </div>
  );
}

/** The stitches as one polyline per run, coloured by block, in a box of fixed shape (no shift
 * when a file is read). */
export function StitchPreview({ preview }: { preview: DesignPreview }) {
  const width = Math.max(preview.max_x - preview.min_x, 1);
  const height = Math.max(preview.max_y - preview.min_y, 1);
  const margin = Math.max(width, height) * 0.04;
  let neutral = 0;
  return (
    <svg
      className="stitch-preview"
      role="img"
      aria-label="Preview of the design's stitches"
      viewBox={`${preview.min_x - margin} ${preview.min_y - margin} ${width + 2 * margin} ${height + 2 * margin}`}
      preserveAspectRatio="xMidYMid meet"
    >
      {preview.blocks.map((block, index) => {
        const colour = block.colour ?? NEUTRALS[neutral++ % NEUTRALS.length];
        return (
          <g key={index} stroke={colour} fill="none" strokeLinejoin="round" strokeLinecap="round">
            {block.lines.map((line, n) => (
              <polyline key={n} points={line.map(([x, y]) => `${x},${y}`).join(' ')} vectorEffect="non-scaling-stroke" />
            ))}
          </g>
        );
      })}
    </svg>
  );
}

/** A thread counts as in stock when the closest one owned is within the converter's "similar"
 * band (docs/behaviour.md, "Design files"). */
const IN_STOCK_BELOW = 5;

/** The design's threads: each distinct thread once with the blocks it sews, then the sewing
 * sequence. Quotes saved before threads were counted have only the sequence: merged by colour. */
function DesignThreads({ summary, teamId, preferredLine }: { summary: DesignSummary; teamId: string; preferredLine: string }) {
  const threads = threadsOf(summary);
  // All the design's colours in one request.
  const owned = useClosestThreads(
    teamId,
    threads.map((thread) => thread.colour),
  );
  const lineNames = useLineNames(
    preferredLine,
    threads.map((thread) => (thread.name ? null : thread.colour)),
  );
  const names = threads.map((thread, index) => thread.name ?? lineNames[index] ?? thread.colour);
  const nameOfBlock = new Map<number, string>();
  threads.forEach((thread, index) => {
    for (const block of thread.blocks) nameOfBlock.set(block, names[index] ?? thread.colour);
  });
  const id = useId();
  return (
    <div className="design-threads">
      <h3>Threads needed: {formatCount(threads.length)}</h3>
      <ol className="design-threads__list" aria-label="Threads needed">
        {threads.map((thread, index) => (
          <li key={`${thread.colour}-${thread.name ?? ''}`} className="design-threads__item">
            <Link to={`${paths.threadConverter}?hex=${thread.colour.replace('#', '')}`} className="design-threads__link">
              <span className="swatch swatch--md" style={{ backgroundColor: thread.colour }} aria-hidden="true" />
              <span className="design-threads__name">{names[index]}</span>
              <span className="visually-hidden"> in the thread converter</span>
            </Link>
            <span className="muted design-threads__blocks">
              {thread.colour} · {thread.blocks.length === 1 ? 'Block' : 'Blocks'} {thread.blocks.join(', ')}
            </span>
            {teamId ? <Owned query={owned} colour={thread.colour} /> : null}
          </li>
        ))}
      </ol>
      <h4 id={`${id}-sequence`}>Sewing sequence</h4>
      <ol className="design-threads__sequence" aria-labelledby={`${id}-sequence`}>
        {summary.thread_colours.map((hex, index) => {
          const block = index + 1;
          const name = nameOfBlock.get(block) ?? hex;
          return (
            <li key={block} title={`Block ${block}: ${name}`} className="design-threads__block">
              <span className="swatch swatch--sm" style={{ backgroundColor: hex }} aria-hidden="true" />
              <span className="visually-hidden">{`Block ${block}: ${name}`}</span>
            </li>
          );
        })}
      </ol>
    </div>
  );
}

/** The threads of a summary; for figures saved without them, the blocks merged by colour. */
function threadsOf(summary: DesignSummary): DesignThread[] {
  if (summary.threads) return summary.threads;
  const threads = new Map<string, DesignThread>();
  summary.thread_colours.forEach((colour, index) => {
    const seen = threads.get(colour);
    if (seen) seen.blocks.push(index + 1);
    else threads.set(colour, { colour, name: null, blocks: [index + 1] });
  });
  return [...threads.values()];
}

/** For each colour (null: none wanted), the closest thread of the preferred line as
 * "Line code name"; nothing without a preferred line or until the catalogue is loaded. */
function useLineNames(line: string, colours: (string | null)[]): (string | undefined)[] {
  const wanted = line !== '' && colours.some((colour) => colour !== null);
  const converter = useQuery({ ...converterQueryOptions, enabled: wanted });
  if (!wanted || !converter.data) return colours.map(() => undefined);
  const catalogue = converter.data;
  return colours.map((colour) => {
    if (colour === null) return undefined;
    try {
      const match = catalogue.convert({ from: { hex: colour }, to: [line], matches: 1 }).lines[0]?.matches[0];
      return match ? `${match.thread.line_name} ${match.thread.code} ${match.thread.name}` : undefined;
    } catch {
      // A preferred line the catalogue no longer has: the colour's code names the thread.
      return undefined;
    }
  });
}

function Owned({ query, colour }: { query: UseQueryResult<Record<string, ClosestThread | null>>; colour: string }) {
  const state = query.data?.[colour.toUpperCase()];
  if (state === null) return <span className="muted">Not in stock: we own no thread yet.</span>;
  if (state === undefined)
    return query.isPending ? (
      <span className="muted">Looking in the inventory…</span>
    ) : (
      <span className="muted">The inventory could not be read.</span>
    );
  const label = [state.line_name, state.code, state.name].filter(Boolean).join(' ');
  const distance = state.distance == null ? '' : `, ΔE ${oneDecimal.format(state.distance)}`;
  if (state.distance != null && state.distance >= IN_STOCK_BELOW)
    return (
      <span className="design-threads__owned design-threads__owned--none">
        Nothing close in stock (closest: {label}
        {distance})
      </span>
    );
  return (
    <span className="design-threads__owned">
      In stock: {label}
      {distance}, {formatCount(state.quantity)} {state.quantity === 1 ? 'spool' : 'spools'}
    </span>
  );
}
