// The team's price list. Admins and owners edit every field of it (the quantity breaks as a
// table of rows, profit as a markup or a margin) and save it to the team settings; members and
// viewers read it.
import { useEffect, useId, useState } from 'react';
import { useFieldArray, useForm, useWatch } from 'react-hook-form';

import { FormAlert, FormStatus } from '@/components/form';
import { ApiError } from '@/lib/api-client';
import type { PriceProblem, PricingCore, Rates } from '@/lib/core';

import { RATE_FIELDS, type RatesFields, problemsByField, ratesFieldsOf, ratesOf, settingsChangesOf } from '../model';
import type { TeamSettings } from '../types';

/** A job every price list can price, to have the core check the rates alone. */
const PROBE_JOB = { stitches: 1000, colours: 1, quantity: 1 };

export function PriceList({
  core,
  rates,
  currency,
  editable,
  saveSettings,
  onDraft,
}: {
  core: PricingCore;
  rates: Rates;
  currency: string;
  editable: boolean;
  saveSettings: (changes: TeamSettings) => Promise<TeamSettings>;
  /** The price list as edited and not yet saved (null when unchanged or not readable), so the
   * calculator can price with it while the admin tries rates out. */
  onDraft: (rates: Rates | null) => void;
}) {
  const id = useId();
  return (
    <section className="card pricing-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{editable ? 'Edit price list' : 'Price list'}</h2>
      {editable ? (
        <RatesForm core={core} rates={rates} currency={currency} saveSettings={saveSettings} onDraft={onDraft} />
      ) : (
        <>
          <p className="muted">Only admins and owners can change the price list.</p>
          <RatesTable rates={rates} />
        </>
      )}
    </section>
  );
}

function RatesTable({ rates }: { rates: Rates }) {
  const profit = 'margin_percent' in rates.profit ? `Margin ${rates.profit.margin_percent}%` : `Markup ${rates.profit.markup_percent}%`;
  return (
    <>
      <dl className="details rates-list">
        {RATE_FIELDS.map(([key, label]) => (
          <div key={key}>
            <dt>{label}</dt>
            <dd>{String(rates[key])}</dd>
          </div>
        ))}
        <div>
          <dt>Profit on materials</dt>
          <dd>{profit}</dd>
        </div>
      </dl>
      <h3>Quantity breaks</h3>
      {rates.quantity_breaks.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <ul className="rates-breaks">
          {[...rates.quantity_breaks]
            .sort((a, b) => a.min_quantity - b.min_quantity)
            .map((row) => (
              <li key={row.min_quantity}>
                From {row.min_quantity} pieces:{' '}
                {'discount_percent' in row
                  ? `${row.discount_percent}% off the stitch price`
                  : `${row.price_per_thousand} per 1,000 stitches`}
              </li>
            ))}
        </ul>
      )}
    </>
  );
}

function Problem({ inputId, problem }: { inputId: string; problem: string | undefined }) {
  if (!problem) return null;
  return (
    <p id={`${inputId}-error`} className="field__error">
      {problem}
    </p>
  );
}

function RatesForm({
  core,
  rates,
  currency,
  saveSettings,
  onDraft,
}: {
  core: PricingCore;
  rates: Rates;
  currency: string;
  saveSettings: (changes: TeamSettings) => Promise<TeamSettings>;
  onDraft: (rates: Rates | null) => void;
}) {
  const id = useId();
  const { register, control, handleSubmit, formState } = useForm<RatesFields>({ values: ratesFieldsOf(rates) });
  // Every edit is handed up as it is typed; unchanged (or just saved) fields hand up nothing.
  const fields = useWatch({ control }) as RatesFields;
  const { isDirty } = formState;
  useEffect(() => {
    const typed = isDirty ? ratesOf(fields) : null;
    onDraft(typed && typed.problems.length === 0 ? typed.rates : null);
  }, [fields, isDirty, onDraft]);
  const breaks = useFieldArray({ control, name: 'quantity_breaks' });
  const [problems, setProblems] = useState<Map<string, string>>(new Map());
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { profitKind } = fields;

  const submit = handleSubmit(async (fields) => {
    setStatus(null);
    setError(null);
    const typed = ratesOf(fields);
    let found: PriceProblem[] = typed.problems;
    if (found.length === 0) {
      try {
        const checked = core.priceJob({ rates: typed.rates, job: PROBE_JOB, currency });
        found = 'problems' in checked ? checked.problems : [];
      } catch (failure) {
        found = [{ field: '', code: 'error', message: failure instanceof Error ? failure.message : String(failure) }];
      }
    }
    setProblems(problemsByField(found));
    if (found.length > 0) {
      setError('Some rates need fixing before the price list can be saved.');
      return;
    }
    try {
      await saveSettings(settingsChangesOf(typed.rates));
      setStatus('The price list is saved.');
    } catch (failure) {
      setError(failure instanceof ApiError || failure instanceof Error ? failure.message : 'The price list could not be saved.');
      if (failure instanceof ApiError && failure.fields) {
        // The server names fields of the `pricing` setting ("pricing.setup_fee" or "setup_fee").
        const named = new Map<string, string>();
        for (const [field, message] of Object.entries(failure.fields)) {
          named.set(`rates.${field.replace(/^(pricing|rates)\./, '')}`, message);
        }
        setProblems(named);
      }
    }
  });

  const problemOf = (field: string) => problems.get(field);
  const described = (inputId: string, problem: string | undefined) =>
    problem ? ({ 'aria-invalid': true, 'aria-describedby': `${inputId}-error` } as const) : {};

  return (
    <form onSubmit={submit} noValidate>
      <div className="pricing-inputs__grid">
        {RATE_FIELDS.map(([key, label, kind]) => {
          const inputId = `${id}-${key}`;
          const problem = problemOf(`rates.${key}`);
          return (
            <div className="field" key={key}>
              <label htmlFor={inputId}>{label}</label>
              <input
                id={inputId}
                type="text"
                inputMode={kind === 'count' ? 'numeric' : 'decimal'}
                {...described(inputId, problem)}
                {...register(key)}
              />
              <Problem inputId={inputId} problem={problem} />
            </div>
          );
        })}
      </div>
      <fieldset className="rates-profit">
        <legend>Profit on materials</legend>
        <div className="chips">
          <label className="check">
            <input type="radio" value="markup_percent" {...register('profitKind')} /> Markup (% added to cost)
          </label>
          <label className="check">
            <input type="radio" value="margin_percent" {...register('profitKind')} /> Margin (% of the selling price)
          </label>
        </div>
        <div className="field field--narrow">
          <label htmlFor={`${id}-profit`}>{profitKind === 'margin_percent' ? 'Margin (%)' : 'Markup (%)'}</label>
          <input
            id={`${id}-profit`}
            type="text"
            inputMode="decimal"
            {...described(`${id}-profit`, problemOf(`rates.profit.${profitKind}`))}
            {...register('profit')}
          />
          <Problem inputId={`${id}-profit`} problem={problemOf(`rates.profit.${profitKind}`)} />
        </div>
      </fieldset>
      <fieldset className="rates-breaks">
        <legend>Quantity breaks</legend>
        <Problem inputId={`${id}-breaks`} problem={problemOf('rates.quantity_breaks')} />
        {breaks.fields.length === 0 ? <p className="muted">No quantity breaks.</p> : null}
        <ol className="rates-breaks__rows">
          {breaks.fields.map((row, n) => {
            const rowId = `${id}-break-${n}`;
            const field = `rates.quantity_breaks[${n}]`;
            const kind = fields.quantity_breaks[n]?.kind;
            const minProblem = problemOf(`${field}.min_quantity`);
            const valueProblem = problemOf(`${field}.${kind}`) ?? problemOf(field);
            return (
              <li key={row.id} className="rates-breaks__row">
                <div className="field">
                  <label htmlFor={`${rowId}-min`}>From quantity</label>
                  <input
                    id={`${rowId}-min`}
                    type="text"
                    inputMode="numeric"
                    {...described(`${rowId}-min`, minProblem)}
                    {...register(`quantity_breaks.${n}.minQuantity`)}
                  />
                  <Problem inputId={`${rowId}-min`} problem={minProblem} />
                </div>
                <div className="field">
                  <label htmlFor={`${rowId}-kind`}>Break</label>
                  <select id={`${rowId}-kind`} {...register(`quantity_breaks.${n}.kind`)}>
                    <option value="discount_percent">A discount</option>
                    <option value="price_per_thousand">Its own price</option>
                  </select>
                </div>
                <div className="field">
                  <label htmlFor={`${rowId}-value`}>{kind === 'price_per_thousand' ? 'Price per 1,000' : 'Discount (%)'}</label>
                  <input
                    id={`${rowId}-value`}
                    type="text"
                    inputMode="decimal"
                    {...described(`${rowId}-value`, valueProblem)}
                    {...register(`quantity_breaks.${n}.value`)}
                  />
                  <Problem inputId={`${rowId}-value`} problem={valueProblem} />
                </div>
                <button
                  type="button"
                  className="button"
                  onClick={() => breaks.remove(n)}
                  aria-label={`Remove the break from ${fields.quantity_breaks[n]?.minQuantity || 'this row'}`}
                >
                  Remove
                </button>
              </li>
            );
          })}
        </ol>
        <button type="button" className="button" onClick={() => breaks.append({ minQuantity: '', kind: 'discount_percent', value: '' })}>
          Add a break
        </button>
      </fieldset>
      <div className="actions">
        <button type="submit" className="button button--primary" disabled={formState.isSubmitting}>
          Save price list
        </button>
      </div>
      <FormAlert message={error ?? problems.get('') ?? null} />
      <FormStatus message={status} />
    </form>
  );
}
