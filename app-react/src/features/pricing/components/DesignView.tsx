// A design's figures and a drawing of its stitches, with its thread colours: each links to the
// thread converter and says whether the team owns something close.
import { Link } from 'react-router';

import { paths } from '@/config/paths';
import type { DesignPreview, DesignSummary } from '@/lib/core';

import { type ClosestThread, useClosestThreads } from '../api/get-closest-thread';
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
  teamId,
}: {
  fileName: string;
  summary: DesignSummary;
  preview: DesignPreview | null;
  teamId: string;
}) {
  return (
    <div className="design-view">
      <div className="design-view__preview">
        {preview ? <StitchPreview preview={preview} /> : <p className="muted">No preview: this design was saved with a quote.</p>}
      </div>
      <dl className="design-view__figures" aria-label={`Design ${fileName}`}>
        <div>
          <dt>File</dt>
          <dd>{fileName}</dd>
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
          <dt>Colours</dt>
          <dd>{formatCount(summary.colours)}</dd>
        </div>
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
      {summary.thread_colours.length > 0 ? <DesignColours colours={summary.thread_colours} teamId={teamId} /> : null}
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

function DesignColours({ colours, teamId }: { colours: string[]; teamId: string }) {
  const closest = useClosestThreads(teamId, colours);
  return (
    <div className="design-colours">
      <h3>Thread colours</h3>
      <ol className="design-colours__list">
        {colours.map((hex, index) => {
          const owned = closest[index];
          return (
            <li key={`${index}-${hex}`} className="design-colours__item">
              <Link to={`${paths.threadConverter}?hex=${hex.replace('#', '')}`} className="design-colours__link">
                <span className="swatch swatch--md" style={{ backgroundColor: hex }} aria-hidden="true" />
                <span className="design-colours__hex">{hex}</span>
                <span className="visually-hidden"> in the thread converter</span>
              </Link>
              {teamId ? <Owned state={owned?.data} pending={owned?.isPending ?? false} failed={owned?.isError ?? false} /> : null}
            </li>
          );
        })}
      </ol>
    </div>
  );
}

function Owned({ state, pending, failed }: { state: ClosestThread | null | undefined; pending: boolean; failed: boolean }) {
  if (state === null) return <span className="muted">We own no thread yet.</span>;
  if (state === undefined)
    return pending ? (
      <span className="muted">Looking in the inventory…</span>
    ) : failed ? (
      <span className="muted">The inventory could not be read.</span>
    ) : null;
  const label = [state.code, state.name].filter(Boolean).join(' ');
  return (
    <span className="design-colours__owned">
      Closest we own: {label}
      {state.distance == null ? '' : `, ΔE ${oneDecimal.format(state.distance)}`}, {formatCount(state.quantity)}{' '}
      {state.quantity === 1 ? 'spool' : 'spools'}
    </span>
  );
}
