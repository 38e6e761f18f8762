// `/jobs/{id}`: one job: its colour plan (a thread of the inventory for each colour of the design,
// Bobbin's proposal beside it; for DST and EXP one per block, the preview recoloured as they are
// picked), the needles, the stock check, the actions that move it along, and its run sheet.
import { useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import { Link } from 'react-router';

import { LibraryPreview } from '@/components/LibraryPreview';
import { LoadingStatus } from '@/components/LoadingStatus';
import { FormAlert } from '@/components/form';
import { designPath, jobSheetPath, pageTitle, paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { useOnline } from '@/lib/offline/online';

import {
  type Job,
  type JobPatch,
  type JobStatus,
  type ThreadOption,
  jobQueryOptions,
  threadOptionsQueryOptions,
  useChangeJob,
  useRecordPieces,
} from './api';
import { JobDetails } from './components/JobDetails';
import { NeedleList } from './components/NeedleList';
import { formatCount, formatDue, length, statusNames, unitOf } from './format';
import type { JobsAccess } from './jobs-page';

export function JobPage({ teamId, canWrite, jobId }: JobsAccess & { jobId: string }) {
  const job = useQuery(jobQueryOptions(teamId, jobId));
  const missing = job.error instanceof ApiError && job.error.status === 404;
  return (
    <div className="jobs job-page">
      <title>{pageTitle(job.data?.job.name ?? 'Job')}</title>
      <nav className="breadcrumb no-print" aria-label="Breadcrumb">
        <ol>
          <li>
            <Link to={paths.jobs}>Jobs</Link>
          </li>
          <li aria-current="page">Job</li>
        </ol>
      </nav>
      {job.data ? (
        <JobView teamId={teamId} canWrite={canWrite} job={job.data.job} />
      ) : (
        <>
          <h1>Job</h1>
          <LoadingStatus query={job}>Loading the job…</LoadingStatus>
          {job.isError ? (
            <p role="alert">
              {missing ? 'There is no such job in this team.' : 'The job could not be loaded.'}{' '}
              <Link to={paths.jobs}>Back to the jobs</Link>
            </p>
          ) : null}
        </>
      )}
    </div>
  );
}

/** The colour each block is drawn in: its thread's, else the file's. */
export function blockColours(job: Job): (string | null)[] {
  return job.blocks.map((block) => job.slots[block.slot]?.thread?.colour ?? job.slots[block.slot]?.colour ?? null);
}

function JobView({ teamId, canWrite, job }: JobsAccess & { job: Job }) {
  const id = useId();
  const online = useOnline();
  const [editing, setEditing] = useState(false);
  const unit = unitOf(job);
  const colours = useMemo(() => blockColours(job), [job]);
  const left = job.quantity - job.pieces_done;
  return (
    <>
      <h1 className="job-page__title">
        {job.name} <span className={`job-status job-status--${job.status}`}>{statusNames[job.status]}</span>
      </h1>
      <p className="muted">
        {[
          job.customer,
          `${formatCount(job.pieces_done)} of ${formatCount(job.quantity)} pieces done`,
          job.due_date ? `due ${formatDue(job.due_date)}` : null,
          job.machine ? `on ${job.machine.name}` : 'no machine chosen',
        ]
          .filter(Boolean)
          .join(' · ')}
      </p>
      {job.notes ? <p className="job-page__notes">{job.notes}</p> : null}
      {editing ? (
        <JobDetails key={job.version} teamId={teamId} job={job} done={() => setEditing(false)} />
      ) : canWrite && online ? (
        <p>
          <button type="button" className="button" onClick={() => setEditing(true)}>
            Edit details
          </button>
        </p>
      ) : null}
      <div className="job-page__layout">
        <section className="card job-page__preview" aria-label="Preview">
          {job.design_id ? (
            <LibraryPreview teamId={teamId} designId={job.design_id} name={job.design.file_name} size="lg" colours={colours} />
          ) : (
            <p className="muted">The design is no longer in the library; the job keeps its figures.</p>
          )}
          <p className="muted">
            {job.design_id ? <Link to={designPath(job.design_id)}>{job.design.file_name}</Link> : job.design.file_name}:{' '}
            {formatCount(job.design.stitches)} stitches, {formatCount(job.design.colour_changes)}{' '}
            {job.design.colour_changes === 1 ? 'colour change' : 'colour changes'}
          </p>
          <p>
            Thread a piece: {length(job.top_m, unit)} top, {length(job.bobbin_m, unit)} bobbin. For the {formatCount(left)}{' '}
            {left === 1 ? 'piece' : 'pieces'} left with {job.usage.waste_percent}% waste: {length(job.job_top_m, unit)} top,{' '}
            {length(job.job_bobbin_m, unit)} bobbin.
          </p>
        </section>
        <section className="card job-page__actions" aria-labelledby={`${id}-actions`}>
          <h2 id={`${id}-actions`}>On the machine</h2>
          <Actions teamId={teamId} canWrite={canWrite} job={job} />
          <p>
            <Link className="button" to={jobSheetPath(job.id)}>
              Run sheet
            </Link>
          </p>
        </section>
        <Plan teamId={teamId} canWrite={canWrite} job={job} />
        {job.machine ? (
          <section className="card job-page__needles" aria-labelledby={`${id}-needles`}>
            <h2 id={`${id}-needles`}>Needles</h2>
            <NeedleList job={job} />
          </section>
        ) : null}
        <Stock job={job} />
      </div>
    </>
  );
}

/** The moves a job's status allows, and recording pieces done. */
function Actions({ teamId, canWrite, job }: JobsAccess & { job: Job }) {
  const online = useOnline();
  const change = useChangeJob(teamId, job);
  const record = useRecordPieces(teamId, job.id);
  const [pieces, setPieces] = useState('');
  const [error, setError] = useState<string | null>(null);
  const left = job.quantity - job.pieces_done;
  if (!canWrite) return <p className="muted">Viewers see the job; members move it along.</p>;
  const run = async (work: () => Promise<unknown>) => {
    setError(null);
    try {
      await work();
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'That could not be saved.');
    }
  };
  const move = (status: JobStatus, label: string, primary = false) => (
    <button
      type="button"
      className={`button${primary ? ' button--primary' : ''}`}
      disabled={!online || change.isPending}
      onClick={() => void run(() => change.mutateAsync({ status }))}
    >
      {label}
    </button>
  );
  const busy = !online || record.isPending;
  return (
    <>
      <div className="actions job-actions">
        {job.status === 'draft' ? (
          <>
            {move('ready', 'Mark ready', true)}
            {move('cancelled', 'Cancel job')}
          </>
        ) : null}
        {job.status === 'ready' ? (
          <>
            {move('running', 'Start', true)}
            {move('draft', 'Back to draft')}
            {move('cancelled', 'Cancel job')}
          </>
        ) : null}
        {job.status === 'running' ? (
          <>
            {move('ready', 'Pause')}
            {move('cancelled', 'Cancel job')}
          </>
        ) : null}
        {job.status === 'cancelled' ? move('draft', 'Back to draft') : null}
      </div>
      {job.status === 'done' ? (
        <p>
          Every piece is done and its thread was taken from stock. Pieces recorded by mistake are undone in the{' '}
          <Link to={paths.inventoryHistory}>stock history</Link>.
        </p>
      ) : null}
      {job.status === 'ready' || job.status === 'running' ? (
        <form
          className="job-pieces"
          onSubmit={(event) => {
            event.preventDefault();
            const count = Number(pieces);
            if (!Number.isInteger(count) || count < 1 || count > left) {
              setError(`Record 1 to ${formatCount(left)} pieces.`);
              return;
            }
            void run(async () => {
              await record.mutateAsync(count);
              setPieces('');
            });
          }}
        >
          <label htmlFor={`pieces-${job.id}`}>Pieces done</label>
          <input
            id={`pieces-${job.id}`}
            type="number"
            inputMode="numeric"
            min="1"
            max={left}
            step="1"
            value={pieces}
            onChange={(event) => setPieces(event.target.value)}
          />
          <button type="submit" className="button" disabled={busy}>
            Record
          </button>
          <button type="button" className="button button--primary" disabled={busy} onClick={() => void run(() => record.mutateAsync(left))}>
            All {formatCount(left)} done
          </button>
          <p className="muted">
            Their thread is taken from stock; the <Link to={paths.inventoryHistory}>stock history</Link> can undo it.
          </p>
        </form>
      ) : null}
      <FormAlert message={error} />
    </>
  );
}

/** The colour plan: a thread for each colour (or block) of the design. */
function Plan({ teamId, canWrite, job }: JobsAccess & { job: Job }) {
  const id = useId();
  const online = useOnline();
  const unit = unitOf(job);
  const threads = useQuery(threadOptionsQueryOptions(teamId));
  const change = useChangeJob(teamId, job);
  const [error, setError] = useState<string | null>(null);
  const editable = canWrite && online && job.status !== 'done' && job.status !== 'cancelled';
  const plan = job.slots.map((slot) => slot.thread?.id ?? null);
  const options: ThreadOption[] = threads.data ?? [];
  const save = async (patch: JobPatch) => {
    setError(null);
    try {
      await change.mutateAsync(patch);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'The plan could not be saved.');
    }
  };
  const pieces = Math.max(1, job.quantity - job.pieces_done);
  return (
    <section className="card job-page__plan" aria-labelledby={`${id}-plan`}>
      <h2 id={`${id}-plan`}>Colour plan</h2>
      {job.slots.some((slot) => slot.colour === null) ? (
        <p className="muted">This file stores no colours: choose a thread for each block, in stitching order.</p>
      ) : null}
      <table className="plan-table">
        <thead>
          <tr>
            <th scope="col">Design</th>
            <th scope="col" className="plan-table__number">
              Stitches
            </th>
            <th scope="col" className="plan-table__number">
              Top thread for the job
            </th>
            <th scope="col">Thread</th>
          </tr>
        </thead>
        <tbody>
          {job.slots.map((slot, index) => {
            const label = slot.colour === null ? `Block ${slot.blocks.join(', ')}` : (slot.name ?? slot.colour);
            const proposal = slot.proposal;
            const suggested = proposal ? options.find((thread) => thread.id === proposal.thread_id) : undefined;
            return (
              <tr key={index}>
                <th scope="row">
                  <span className="plan-table__colour">
                    <span
                      className="swatch swatch--md"
                      style={{ backgroundColor: slot.colour ?? 'transparent' }}
                      aria-hidden="true"
                      data-empty={slot.colour === null ? '' : undefined}
                    />
                    <span>
                      {label}
                      {slot.colour !== null && slot.blocks.length > 1 ? (
                        <span className="muted"> (blocks {slot.blocks.join(', ')})</span>
                      ) : null}
                    </span>
                  </span>
                </th>
                <td className="plan-table__number">{formatCount(slot.stitches)}</td>
                <td className="plan-table__number">
                  {length(slot.top_m * pieces * (1 + job.usage.waste_percent / 100), unit)}
                  <span className="plan-table__piece muted">{length(slot.top_m, unit)} a piece</span>
                </td>
                <td>
                  <span className="plan-table__thread">
                    {slot.thread ? (
                      <span className="swatch swatch--md" style={{ backgroundColor: slot.thread.colour }} aria-hidden="true" />
                    ) : null}
                    <select
                      aria-label={`Thread for ${label}`}
                      value={slot.thread?.id ?? ''}
                      disabled={!editable || change.isPending}
                      onChange={(event) => {
                        const next = [...plan];
                        next[index] = event.target.value || null;
                        void save({ plan: next });
                      }}
                    >
                      <option value="">None: to buy</option>
                      {slot.thread && !options.some((thread) => thread.id === slot.thread?.id) ? (
                        <option value={slot.thread.id}>{slot.thread.label}</option>
                      ) : null}
                      {options.map((thread) => (
                        <option key={thread.id} value={thread.id}>
                          {[thread.line_name, thread.code, thread.name].filter(Boolean).join(' ')}
                        </option>
                      ))}
                    </select>
                  </span>
                  {proposal && proposal.thread_id !== slot.thread?.id ? (
                    <span className="plan-table__proposal muted">
                      Bobbin suggests {suggested ? [suggested.code, suggested.name].filter(Boolean).join(' ') : 'another thread'} (
                      {proposal.label}
                      {proposal.enough ? '' : ', not enough on the shelf'}).
                    </span>
                  ) : proposal && proposal.label === 'poor' ? (
                    <span className="plan-table__proposal muted">The closest thread owned is a poor match.</span>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {editable && job.slots.some((slot) => slot.colour !== null) ? (
        <button type="button" className="button" disabled={change.isPending} onClick={() => void save({ propose: true })}>
          Use Bobbin&apos;s suggestions
        </button>
      ) : null}
      <FormAlert message={error} />
    </section>
  );
}

/** The stock check of each thread of the plan. */
function Stock({ job }: { job: Job }) {
  const id = useId();
  const unit = unitOf(job);
  const verdict =
    job.verdict === 'enough'
      ? 'There is enough of every thread.'
      : job.verdict === 'short'
        ? 'Some threads are short: buy before the run.'
        : 'Choose a thread for every colour to check the stock.';
  return (
    <section className="card job-page__stock" aria-labelledby={`${id}-stock`}>
      <h2 id={`${id}-stock`}>Stock check</h2>
      <p className={`job-verdict job-verdict--${job.verdict}`} role="status">
        {verdict}
      </p>
      {job.stock.length > 0 ? (
        <table className="plan-table">
          <thead>
            <tr>
              <th scope="col">Thread</th>
              <th scope="col" className="plan-table__number">
                Needed
              </th>
              <th scope="col" className="plan-table__number">
                On the shelf
              </th>
              <th scope="col" className="plan-table__number">
                Held by other jobs
              </th>
              <th scope="col">Verdict</th>
            </tr>
          </thead>
          <tbody>
            {job.stock.map((line) => (
              <tr key={line.thread.id}>
                <th scope="row">
                  <span className="plan-table__colour">
                    <span className="swatch swatch--md" style={{ backgroundColor: line.thread.colour }} aria-hidden="true" />
                    <span>{line.thread.label}</span>
                  </span>
                </th>
                <td className="plan-table__number" data-label="Needed">
                  {length(line.need_m, unit)}
                </td>
                <td className="plan-table__number" data-label="On the shelf">
                  {length(line.held_m, unit)}
                  {line.thread.spool_default ? <span className="muted"> ({formatCount(line.thread.spool_m)} m spools assumed)</span> : null}
                </td>
                <td className="plan-table__number" data-label="Held by other jobs">
                  {length(line.reserved_m, unit)}
                </td>
                <td data-label="Verdict">
                  {line.verdict === 'enough'
                    ? 'Enough'
                    : `Short by ${length(line.short_m, unit)} (buy ${formatCount(line.spools)} ${line.spools === 1 ? 'spool' : 'spools'})`}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
