// The job's inputs. Each shows the problem the core (or the typing) found with it, by field.
import { useId } from 'react';
import type { UseFormRegister } from 'react-hook-form';

import type { Job } from '@/lib/core';

import type { PricingMachine } from '../api/get-machines';
import { type JobFields, NO_MACHINE, SAVED_MACHINE, machineSpeed } from '../model';

function Problem({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={`${id}-error`} className="field__error">
      {message}
    </p>
  );
}

const invalid = (id: string, message: string | undefined) =>
  message ? ({ 'aria-invalid': true, 'aria-describedby': `${id}-error` } as const) : {};

export function JobInputs({
  register,
  values,
  problems,
  machines,
  savedMachine,
}: {
  register: UseFormRegister<JobFields>;
  values: JobFields;
  problems: Map<string, string>;
  machines: PricingMachine[];
  savedMachine: Job['machine'];
}) {
  const id = useId();
  const number = (name: 'stitches' | 'colours' | 'quantity' | 'locations', label: string, field: string) => {
    const inputId = `${id}-${name}`;
    const problem = problems.get(field);
    return (
      <div className="field">
        <label htmlFor={inputId}>{label}</label>
        {/* Text, not a number input: "12,500" is read as design software shows it. */}
        <input id={inputId} type="text" inputMode="numeric" autoComplete="off" {...invalid(inputId, problem)} {...register(name)} />
        <Problem id={inputId} message={problem} />
      </div>
    );
  };
  const chosen = machines.find((machine) => machine.id === values.machine);
  const needsSpeed = chosen !== undefined && machineSpeed(chosen) === null;
  const machineProblem = problems.get('job.machine.heads') ?? (needsSpeed ? undefined : problems.get('job.machine.stitches_per_minute'));
  const speedProblem = problems.get('job.machine.stitches_per_minute');
  const garmentProblem = problems.get('job.garment_cost');

  return (
    <fieldset className="pricing-inputs">
      <legend className="visually-hidden">The job</legend>
      <div className="pricing-inputs__grid">
        {number('stitches', 'Stitches', 'job.stitches')}
        {number('colours', 'Colours', 'job.colours')}
        {number('quantity', 'Quantity', 'job.quantity')}
        {number('locations', 'Locations', 'job.locations')}
        <div className="field">
          <label htmlFor={`${id}-garment`}>Garment cost</label>
          <input
            id={`${id}-garment`}
            type="text"
            inputMode="decimal"
            placeholder="0.00"
            aria-describedby={garmentProblem ? `${id}-garment-error` : `${id}-garment-hint`}
            aria-invalid={garmentProblem ? true : undefined}
            {...register('garmentCost')}
          />
          <p id={`${id}-garment-hint`} className="muted">
            Per piece, at cost; empty when the customer brings it.
          </p>
          <Problem id={`${id}-garment`} message={garmentProblem} />
        </div>
      </div>
      <div className="chips" role="group" aria-label="Options">
        <label className="check">
          <input type="checkbox" {...register('digitising')} /> Digitising
        </label>
        <label className="check">
          <input type="checkbox" {...register('rush')} /> Rush
        </label>
      </div>
      <fieldset className="chips">
        <legend>One-off fees</legend>
        <label className="check">
          <input type="radio" value="spread" {...register('oneOffFees')} /> Spread over the pieces
        </label>
        <label className="check">
          <input type="radio" value="separate" {...register('oneOffFees')} /> Shown separately
        </label>
      </fieldset>
      <div className="pricing-inputs__grid">
        <div className="field field--wide">
          <label htmlFor={`${id}-machine`}>Machine</label>
          <select
            id={`${id}-machine`}
            {...invalid(`${id}-machine`, machineProblem)}
            aria-describedby={machineProblem ? `${id}-machine-error` : `${id}-machine-hint`}
            {...register('machine')}
          >
            <option value={NO_MACHINE}>No machine</option>
            {savedMachine ? (
              <option value={SAVED_MACHINE}>
                As saved: {savedMachine.heads} {savedMachine.heads === 1 ? 'head' : 'heads'}, {savedMachine.stitches_per_minute} stitches a
                minute
              </option>
            ) : null}
            {/* Names only, so a phone's picker shows them whole; the chosen one's figures follow. */}
            {machines.map((machine) => (
              <option key={machine.id} value={machine.id}>
                {machine.name}
              </option>
            ))}
          </select>
          {chosen ? (
            <p id={`${id}-machine-hint`} className="muted">
              {machineFigures(chosen)}
            </p>
          ) : null}
          <Problem id={`${id}-machine`} message={machineProblem} />
        </div>
        {needsSpeed ? (
          <div className="field">
            <label htmlFor={`${id}-speed`}>Stitches per minute</label>
            <input
              id={`${id}-speed`}
              type="number"
              inputMode="numeric"
              min="1"
              step="1"
              {...invalid(`${id}-speed`, speedProblem)}
              {...register('speed')}
            />
            <Problem id={`${id}-speed`} message={speedProblem} />
          </div>
        ) : null}
      </div>
    </fieldset>
  );
}

/** "6 heads, 1000 stitches a minute": what the calculator uses of a machine. */
function machineFigures(machine: PricingMachine): string {
  const speed = machineSpeed(machine);
  return `${machine.heads} ${machine.heads === 1 ? 'head' : 'heads'}${speed === null ? '' : `, ${speed} stitches a minute`}`;
}
