// A job's details as the shop changes them after it is made: its name, customer, pieces, machine,
// due date, and the notes the run sheet prints.
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';

import { FieldError, FormAlert, fieldProps } from '@/components/form';
import { ApiError } from '@/lib/api-client';
import { useOnline } from '@/lib/offline/online';

import { type Job, machinesQueryOptions, useChangeJob } from '../api';
import { MachineOptions } from './MachineOptions';

interface DetailFields {
  name: string;
  customer: string;
  quantity: string;
  machine: string;
  due: string;
  notes: string;
}

function fieldsOf(job: Job): DetailFields {
  return {
    name: job.name,
    customer: job.customer,
    quantity: String(job.quantity),
    machine: job.machine?.id ?? '',
    due: job.due_date ?? '',
    notes: job.notes,
  };
}

export function JobDetails({ teamId, job, done }: { teamId: string; job: Job; done: () => void }) {
  const id = useId();
  const online = useOnline();
  const machines = useQuery(machinesQueryOptions(teamId));
  const change = useChangeJob(teamId, job);
  const [error, setError] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<DetailFields>({ defaultValues: fieldsOf(job) });
  const { errors } = formState;
  const submit = handleSubmit(async (fields) => {
    setError(null);
    try {
      await change.mutateAsync({
        name: fields.name,
        customer: fields.customer,
        quantity: Number(fields.quantity),
        machine_id: fields.machine,
        due_date: fields.due,
        notes: fields.notes,
      });
      done();
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'The job could not be saved.');
    }
  });
  return (
    <form className="job-details" onSubmit={submit} noValidate aria-label="Job details">
      <fieldset disabled={!online || formState.isSubmitting}>
        <div className="field">
          <label htmlFor={`${id}-name`}>Name</label>
          <input
            id={`${id}-name`}
            {...fieldProps(`${id}-name`, errors.name)}
            {...register('name', { validate: (value) => value.trim() !== '' || 'Give the job a name.' })}
          />
          <FieldError id={`${id}-name`} error={errors.name} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-customer`}>Customer</label>
          <input id={`${id}-customer`} {...register('customer')} />
        </div>
        <div className="field-row">
          <div className="field">
            <label htmlFor={`${id}-quantity`}>Pieces</label>
            <input
              id={`${id}-quantity`}
              type="number"
              inputMode="numeric"
              min={Math.max(1, job.pieces_done)}
              step="1"
              {...fieldProps(`${id}-quantity`, errors.quantity)}
              {...register('quantity', {
                validate: (value) =>
                  (/^\d+$/.test(value.trim()) && Number(value) >= Math.max(1, job.pieces_done) && Number(value) <= 1_000_000) ||
                  `Give ${Math.max(1, job.pieces_done).toLocaleString()} to 1,000,000 pieces.`,
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
            <MachineOptions machines={machines.data?.machines ?? []} current={job.machine} />
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-notes`}>Notes for the operator</label>
          <textarea id={`${id}-notes`} rows={3} maxLength={2000} {...register('notes')} />
        </div>
        <div className="actions">
          <button type="submit" className="button button--primary">
            Save details
          </button>
          <button type="button" className="button" onClick={done}>
            Cancel
          </button>
        </div>
      </fieldset>
      <FormAlert message={error} />
    </form>
  );
}
