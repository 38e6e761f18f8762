// `/jobs/{id}/sheet`: the run sheet an operator uses without the app, on one A4 or Letter page for
// up to 15 colours: the preview, the blocks in stitching order with their needle and thread, the
// stops, trims, run time, quantity and due date, and room for notes. Print it, or save it as a
// PDF from the print dialogue.
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link } from 'react-router';

import { LibraryPreview } from '@/components/LibraryPreview';
import { LoadingStatus } from '@/components/LoadingStatus';
import { jobPath, pageTitle } from '@/config/paths';

import { type Job, jobQueryOptions } from './api';
import { slotColour, slotName } from './components/NeedleList';
import { formatCount, formatDue, length, needles, statusNames, unitOf } from './format';
import { blockColours } from './job-page';
import type { JobsAccess } from './jobs-page';

export function SheetPage({ teamId, jobId }: JobsAccess & { jobId: string }) {
  const job = useQuery(jobQueryOptions(teamId, jobId));
  return (
    <div className="jobs run-sheet">
      <title>{pageTitle(job.data ? `Run sheet: ${job.data.job.name}` : 'Run sheet')}</title>
      {job.data ? (
        <Sheet teamId={teamId} job={job.data.job} />
      ) : (
        <>
          <h1>Run sheet</h1>
          <LoadingStatus query={job}>Loading the job…</LoadingStatus>
          {job.isError ? <p role="alert">The job could not be loaded.</p> : null}
        </>
      )}
    </div>
  );
}

/** Sewing time for the job: the stitches at the machine's typical speed, for as many runs as
 * its heads need; none without a machine or a speed. */
function runTime(job: Job): string | null {
  const spm = job.machine?.typical_spm;
  if (!job.machine || !spm) return null;
  const runs = Math.ceil((job.quantity - job.pieces_done) / Math.max(1, job.machine.heads));
  const minutes = (job.design.stitches / spm) * runs;
  const hours = Math.floor(minutes / 60);
  const text = hours > 0 ? `${hours} h ${Math.round(minutes % 60)} min` : `${Math.max(1, Math.round(minutes))} min`;
  return `${text} of sewing (${formatCount(runs)} ${runs === 1 ? 'run' : 'runs'} at ${formatCount(spm)} stitches a minute)`;
}

function Sheet({ teamId, job }: { teamId: string; job: Job }) {
  const unit = unitOf(job);
  const colours = useMemo(() => blockColours(job), [job]);
  const pieces = job.quantity - job.pieces_done;
  const waste = 1 + job.usage.waste_percent / 100;
  const time = runTime(job);
  return (
    <article className="run-sheet__page">
      <div className="actions no-print">
        <Link to={jobPath(job.id)}>← Back to the job</Link>
        <button type="button" className="button button--primary" onClick={() => window.print()}>
          Print or save as PDF
        </button>
      </div>
      <header className="run-sheet__header">
        <h1>{job.name}</h1>
        <p>{[job.customer, statusNames[job.status], job.due_date ? `Due ${formatDue(job.due_date)}` : null].filter(Boolean).join(' · ')}</p>
      </header>
      <div className="run-sheet__top">
        <div className="run-sheet__preview">
          {job.design_id ? <LibraryPreview teamId={teamId} designId={job.design_id} name={job.design.file_name} colours={colours} /> : null}
        </div>
        <dl className="run-sheet__facts">
          <dt>Design</dt>
          <dd>{job.design.file_name}</dd>
          <dt>Pieces</dt>
          <dd>
            {formatCount(pieces)} to sew
            {job.pieces_done > 0 ? ` (${formatCount(job.pieces_done)} of ${formatCount(job.quantity)} done)` : ''}
          </dd>
          <dt>Machine</dt>
          <dd>{job.machine ? `${job.machine.name}, ${needles(job.machine.needles)}` : 'Not chosen'}</dd>
          <dt>Stitches</dt>
          <dd>
            {formatCount(job.design.stitches)} ({job.design.width_mm.toFixed(1)} × {job.design.height_mm.toFixed(1)} mm)
          </dd>
          <dt>Stops</dt>
          <dd>
            {formatCount(job.design.colour_changes)} {job.design.colour_changes === 1 ? 'colour change' : 'colour changes'}
          </dd>
          <dt>Trims</dt>
          <dd>{job.design.trims === null ? 'Not recorded in this format' : formatCount(job.design.trims)}</dd>
          <dt>Run time</dt>
          <dd>{time ?? 'Choose a machine with its typical speed'}</dd>
          <dt>Bobbin</dt>
          <dd>{length(job.job_bobbin_m, unit)} for the job</dd>
        </dl>
      </div>
      <table className="run-sheet__needles">
        <caption>Needles in stitching order</caption>
        <thead>
          <tr>
            <th scope="col">Block</th>
            <th scope="col">Needle</th>
            <th scope="col">
              <span className="visually-hidden">Colour</span>
            </th>
            <th scope="col">Line</th>
            <th scope="col">Code</th>
            <th scope="col">Name</th>
            <th scope="col" className="run-sheet__number">
              Stitches
            </th>
            <th scope="col" className="run-sheet__number">
              Thread
            </th>
          </tr>
        </thead>
        <tbody>
          {job.blocks.map((block, index) => {
            const slot = job.slots[block.slot];
            const thread = slot?.thread;
            const rethread = job.rethreads.find((step) => step.before_block === index + 1);
            return (
              <tr key={index} className={rethread ? 'run-sheet__rethread' : undefined}>
                <td>{index + 1}</td>
                <td className="run-sheet__needle">{block.needle ?? '—'}</td>
                <td>
                  <span
                    className="swatch swatch--md"
                    style={{ backgroundColor: slotColour(job, block.slot) ?? 'transparent' }}
                    aria-hidden="true"
                  />
                </td>
                <td>{thread ? lineOf(thread.label, thread.code) : ''}</td>
                <td>{thread?.code ?? ''}</td>
                <td>
                  {thread ? nameOf(thread.label, thread.code) : slotName(job, block.slot)}
                  {rethread ? <strong> (re-thread needle {rethread.needle})</strong> : null}
                </td>
                <td className="run-sheet__number">{formatCount(block.stitches)}</td>
                <td className="run-sheet__number">{length(block.top_m * pieces * waste, unit)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <section className="run-sheet__notes" aria-label="Notes">
        <h2>Notes</h2>
        <p>{job.notes}</p>
      </section>
    </article>
  );
}

/** The line of a thread labelled "Madeira Polyneon 40 1800 Red": what comes before its code. */
function lineOf(label: string, code: string | null): string {
  if (!code) return 'Custom';
  const at = label.indexOf(` ${code} `);
  return at > 0 ? label.slice(0, at) : label;
}

/** The name of a thread labelled "Madeira Polyneon 40 1800 Red": what comes after its code. */
function nameOf(label: string, code: string | null): string {
  if (!code) return label;
  const at = label.indexOf(` ${code} `);
  return at >= 0 ? label.slice(at + code.length + 2) : label;
}
