// `/jobs`: the team's jobs by status and due date with what each is short of, and "Make a job"
// from a design of the library (`?design=` chooses it, from the design's page).
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';

import { LoadingStatus } from '@/components/LoadingStatus';
import { FieldError, FormAlert, fieldProps } from '@/components/form';
import { jobPath, pageTitle, paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { libraryQueryOptions } from '@/lib/design-library';
import { useOnline } from '@/lib/offline/online';

import { type JobStatus, type JobSummary, jobsQueryOptions, machinesQueryOptions, useMakeJob } from './api';
import { MachineOptions } from './components/MachineOptions';
import { formatCount, formatDue, statusNames, verdictText } from './format';

export interface JobsAccess {
  teamId: string;
  /** Members, admins and owners make and change jobs; viewers read. */
  canWrite: boolean;
}

/** The order the statuses are listed in: what is on the machine first. */
const ORDER: JobStatus[] = ['running', 'ready', 'draft', 'done', 'cancelled'];

export function JobsPage({ teamId, canWrite }: JobsAccess) {
  const jobs = useQuery(jobsQueryOptions(teamId));
  const list = jobs.data?.jobs ?? [];
  return (
    <div className="jobs">
      <title>{pageTitle('Jobs')}</title>
      <h1>Jobs</h1>
      <p className="lead">
        A job runs a design of the library on a machine: its threads on the needles, the thread it needs against what is on the shelf, and a
        run sheet for the operator.
      </p>
      <div className="jobs__layout">
        {canWrite ? <MakeJob teamId={teamId} /> : null}
        <section className="jobs__list" aria-label="The team's jobs">
          <LoadingStatus query={jobs}>Loading the jobs…</LoadingStatus>
          {jobs.isError && !jobs.data ? <p role="alert">The jobs could not be loaded.</p> : null}
          {jobs.data && list.length === 0 ? <p>No jobs yet. Make one from a design of the library.</p> : null}
          {list.some((job) => job.verdict === 'short') ? (
            <p>
              <Link to={paths.inventoryShoppingList}>What to buy for these jobs</Link>
            </p>
          ) : null}
          {ORDER.map((status) => {
            const group = list.filter((job) => job.status === status);
            return group.length > 0 ? <JobGroup key={status} status={status} jobs={group} /> : null;
          })}
        </section>
      </div>
    </div>
  );
}

function JobGroup({ status, jobs }: { status: JobStatus; jobs: JobSummary[] }) {
  const id = useId();
  return (
    <section className="jobs__group" aria-labelledby={id}>
      <h2 id={id}>
        {statusNames[status]} <span className="muted">({jobs.length})</span>
      </h2>
      <ul className="job-cards">
        {jobs.map((job) => (
          <li key={job.id} className="card job-card">
            <Link className="job-card__name" to={jobPath(job.id)}>
              {job.name}
            </Link>
            <span className="muted">{[job.customer, job.design_name].filter(Boolean).join(' · ')}</span>
            <span>
              {formatCount(job.pieces_done)} of {formatCount(job.quantity)} done
              {job.due_date ? ` · due ${formatDue(job.due_date)}` : ''}
            </span>
            {status === 'done' || status === 'cancelled' ? null : (
              <span className={`job-verdict job-verdict--${job.verdict}`}>{verdictText(job)}</span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

interface MakeFields {
  name: string;
  customer: string;
  design: string;
  quantity: string;
  machine: string;
  due: string;
}

function MakeJob({ teamId }: { teamId: string }) {
  const id = useId();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const online = useOnline();
  const designs = useQuery(libraryQueryOptions(teamId, { q: '', sort: 'name', order: 'asc', page: 1, perPage: 100, readable: true }));
  const machines = useQuery(machinesQueryOptions(teamId));
  const make = useMakeJob(teamId);
  const [error, setError] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<MakeFields>({
    defaultValues: {
      name: params.get('name') ?? '',
      customer: '',
      design: params.get('design') ?? '',
      quantity: params.get('quantity') ?? '1',
      machine: '',
      due: '',
    },
  });
  const { errors } = formState;
  const submit = handleSubmit(async (fields) => {
    setError(null);
    try {
      const job = await make.mutateAsync({
        name: fields.name,
        customer: fields.customer,
        design_id: fields.design,
        quantity: Number(fields.quantity),
        machine_id: fields.machine || null,
        due_date: fields.due || null,
        notes: '',
      });
      await navigate(jobPath(job.id));
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'The job could not be made.');
    }
  });
  const library = designs.data?.designs ?? [];
  return (
    <section className="card jobs__make" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Make a job</h2>
      <form onSubmit={submit} noValidate>
        <fieldset disabled={!online || formState.isSubmitting}>
          <div className="field">
            <label htmlFor={`${id}-name`}>Name</label>
            <input
              id={`${id}-name`}
              placeholder="Café Rosa: 50 polos"
              {...fieldProps(`${id}-name`, errors.name)}
              {...register('name', { validate: (value) => value.trim() !== '' || 'Give the job a name.' })}
            />
            <FieldError id={`${id}-name`} error={errors.name} />
          </div>
          <div className="field">
            <label htmlFor={`${id}-customer`}>Customer</label>
            <input id={`${id}-customer`} {...register('customer')} />
          </div>
          <div className="field">
            <label htmlFor={`${id}-design`}>Design</label>
            <select
              id={`${id}-design`}
              {...fieldProps(`${id}-design`, errors.design)}
              {...register('design', { validate: (value) => value !== '' || 'Choose a design of the library.' })}
            >
              <option value="">Choose a design…</option>
              {library.map((item) => (
                <option key={item.id} value={item.id}>
                  {item.name}
                </option>
              ))}
            </select>
            <FieldError id={`${id}-design`} error={errors.design} />
            {designs.data && library.length === 0 ? (
              <p className="muted">
                The library has no design Bobbin can read yet: <Link to={paths.designs}>add one</Link>.
              </p>
            ) : null}
          </div>
          <div className="field-row">
            <div className="field">
              <label htmlFor={`${id}-quantity`}>Pieces</label>
              <input
                id={`${id}-quantity`}
                type="number"
                inputMode="numeric"
                min="1"
                step="1"
                {...fieldProps(`${id}-quantity`, errors.quantity)}
                {...register('quantity', {
                  validate: (value) =>
                    (/^\d+$/.test(value.trim()) && Number(value) >= 1 && Number(value) <= 1_000_000) || 'Give 1 to 1,000,000 pieces.',
                })}
              />
              <FieldError id={`${id}-quantity`} error={errors.quantity} />
            </div>
            <div className="field">
              <label htmlFor={`${id}-due`}>Due</label>
              <input id={`${id}-due`} type="date" {...register('due')} />
            </div>
          </div>
          <div className="field">
            <label htmlFor={`${id}-machine`}>Machine</label>
            <select id={`${id}-machine`} {...register('machine')}>
              <MachineOptions machines={machines.data?.machines ?? []} />
            </select>
          </div>
          <button type="submit" className="button button--primary">
            {formState.isSubmitting ? 'Making the job…' : 'Make the job'}
          </button>
          {online ? null : <p className="muted">Jobs are made online: the connection is down.</p>}
        </fieldset>
        <FormAlert message={error} />
      </form>
    </section>
  );
}
