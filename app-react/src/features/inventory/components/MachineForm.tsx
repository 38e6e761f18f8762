import { useId } from 'react';
import { useFieldArray } from 'react-hook-form';

import { FormAlert, FormStatus } from '@/components/form';
import { wholeNumber } from '@/lib/text';

import { NOT_A_NUMBER, type FormProblems, numberOf } from '../errors';
import { useInventoryForm } from '../form';
import {
  MACHINE_STATUSES,
  type Machine,
  type MachineDraft,
  type MachineStatus,
  type MaintenanceKind,
  kindLabels,
  statusLabels,
} from '../types';
import { SelectField, TextAreaField, TextField } from './Field';

const TEXTS = ['name', 'brand', 'model', 'serial_number', 'purchase_date', 'notes'] as const;
const NUMBERS = ['heads', 'needles_per_head', 'max_spm', 'typical_spm'] as const;
export const MACHINE_FIELDS = [...TEXTS, ...NUMBERS, 'status', 'hoops', 'intervals'] as const;

interface HoopValues {
  name: string;
  width_mm: string;
  height_mm: string;
}

/** How often one kind of maintenance is due, as typed: blank for "not by this". */
interface IntervalValues {
  kind: MaintenanceKind;
  days: string;
  stitches: string;
}

type Values = Record<(typeof TEXTS)[number] | (typeof NUMBERS)[number], string> & { status: MachineStatus };

/**
 * Everything the form holds: the fields as typed, the hoops, and the maintenance intervals (the
 * machine's own: none while adding one, which then gets the defaults of each kind).
 */
export type MachineValues = Values & { hoops: HoopValues[]; intervals: IntervalValues[] };

/** What each field is called on the form, for the comparison after a clash. */
export const MACHINE_LABELS: Record<(typeof MACHINE_FIELDS)[number], string> = {
  name: 'Name',
  brand: 'Brand',
  model: 'Model',
  serial_number: 'Serial number',
  purchase_date: 'Purchase date',
  notes: 'Notes',
  heads: 'Heads',
  needles_per_head: 'Needles per head',
  max_spm: 'Maximum stitches per minute',
  typical_spm: 'Typical stitches per minute',
  status: 'Status',
  hoops: 'Hoops',
  intervals: 'Maintenance intervals',
};

/** The form's values for `machine`; empty ones to add a machine. */
export function machineValuesOf(machine: Machine | undefined): MachineValues {
  const s = (value: number | string | null | undefined) => (value === null || value === undefined ? '' : String(value));
  return {
    name: machine?.name ?? '',
    brand: machine?.brand ?? '',
    model: machine?.model ?? '',
    serial_number: machine?.serial_number ?? '',
    purchase_date: s(machine?.purchase_date),
    notes: machine?.notes ?? '',
    heads: s(machine?.heads ?? 1),
    needles_per_head: s(machine?.needles_per_head ?? 1),
    max_spm: s(machine?.max_spm),
    typical_spm: s(machine?.typical_spm),
    status: machine?.status ?? 'active',
    hoops: (machine?.hoops ?? []).map((hoop) => ({
      name: hoop.name ?? '',
      width_mm: String(hoop.width_mm),
      height_mm: String(hoop.height_mm),
    })),
    intervals: (machine?.intervals ?? []).map((interval) => ({
      kind: interval.kind,
      days: s(interval.days),
      stitches: s(interval.stitches),
    })),
  };
}

/** "Oiling every 7 days or 1,000,000 stitches". */
function intervalText({ kind, days, stitches }: IntervalValues): string {
  const every = [days.trim() && `${days.trim()} days`, stitches.trim() && `${stitches.trim()} stitches`].filter(Boolean);
  return `${kindLabels[kind]} ${every.length > 0 ? `every ${every.join(' or ')}` : 'not scheduled'}`;
}

/** Each field as the person reads it: the status by its label, the hoops in one line. */
export function machineTexts(values: MachineValues): Record<string, string> {
  const hoop = (h: HoopValues) => `${h.name.trim() ? `${h.name.trim()} ` : ''}${h.width_mm} × ${h.height_mm} mm`;
  const { hoops, status, intervals, ...fields } = values;
  return { ...fields, status: statusLabels[status], hoops: hoops.map(hoop).join(', '), intervals: intervals.map(intervalText).join('; ') };
}

/** The draft to send, or the fields that cannot be read. */
export function draftOf(
  values: Values,
  hoops: HoopValues[],
  intervals: IntervalValues[] = [],
): { draft: MachineDraft } | { fields: Record<string, string> } {
  const fields: Record<string, string> = {};
  const whole = (field: string, raw: string) => {
    const value = numberOf(raw);
    if (value === NOT_A_NUMBER || (value !== null && !Number.isInteger(value))) {
      fields[field] = 'Enter a whole number.';
      return null;
    }
    return value;
  };
  // A count of stitches, typed as the machine shows it: "1,000,000" as well as "1000000".
  const grouped = (field: string, raw: string) => {
    if (raw.trim() === '') return null;
    const value = wholeNumber(raw);
    if (value === null) fields[field] = 'Enter a whole number of stitches.';
    return value;
  };
  if (values.name.trim() === '') fields.name = 'Give the machine a name, e.g. "Tajima 6-head".';
  const draft: MachineDraft = {
    name: values.name.trim(),
    brand: values.brand.trim(),
    model: values.model.trim(),
    serial_number: values.serial_number.trim(),
    heads: whole('heads', values.heads) ?? 1,
    needles_per_head: whole('needles_per_head', values.needles_per_head) ?? 1,
    max_spm: whole('max_spm', values.max_spm),
    typical_spm: whole('typical_spm', values.typical_spm),
    hoops: hoops.map((hoop, index) => ({
      name: hoop.name.trim(),
      width_mm: whole(`hoops[${index}].width_mm`, hoop.width_mm) ?? 0,
      height_mm: whole(`hoops[${index}].height_mm`, hoop.height_mm) ?? 0,
    })),
    status: values.status,
    purchase_date: values.purchase_date || null,
    notes: values.notes,
    intervals: intervals.map((interval, index) => ({
      kind: interval.kind,
      days: whole(`intervals[${index}].days`, interval.days),
      stitches: grouped(`intervals[${index}].stitches`, interval.stitches),
    })),
  };
  return Object.keys(fields).length > 0 ? { fields } : { draft };
}

/** The form of a machine (react-hook-form), its alert and status line: see useInventoryForm. */
export type MachineFormState = ReturnType<typeof useInventoryForm<MachineValues>>;

/** A machine form, empty to add one or filled from `machine` to edit it. */
export function useMachineForm(machine?: Machine): MachineFormState {
  return useInventoryForm<MachineValues>({ defaultValues: machineValuesOf(machine) });
}

/**
 * A machine's fields, hoops included, on `state` (useMachineForm): empty to add one, filled to
 * edit one. `save` answers the problems to show (none when it worked); a machine added empties
 * the form for the next. `children` (the edit page's clash with someone's change) show just
 * above the submit button.
 */
export function MachineForm({
  state,
  adding = false,
  canWrite,
  submitLabel,
  label,
  save,
  submitRef,
  children,
}: {
  state: MachineFormState;
  /** The form adds machines: after each, it starts empty again. */
  adding?: boolean;
  canWrite: boolean;
  submitLabel: string;
  label: string;
  save: (draft: MachineDraft, values: MachineValues) => Promise<{ problems: FormProblems; done: string | null }>;
  submitRef?: React.Ref<HTMLButtonElement>;
  children?: React.ReactNode;
}) {
  const id = useId();
  const { form, alert, done, setDone, show, onSubmit } = state;
  const { register, control, formState } = form;
  const { errors } = formState;
  const hoops = useFieldArray({ control, name: 'hoops' });
  const intervals = useFieldArray({ control, name: 'intervals' });

  const submit = onSubmit(async (values) => {
    const parsed = draftOf(values, values.hoops, values.intervals);
    if ('fields' in parsed) {
      show({ fields: parsed.fields, alert: null });
      return;
    }
    const result = await save(parsed.draft, values);
    show(result.problems);
    setDone(result.done);
    if (adding && result.done) form.reset(machineValuesOf(undefined));
  });

  const text = (field: keyof Values, name: string, extra: Record<string, unknown> = {}) => (
    <TextField id={`${id}-${field}`} label={name} error={errors[field]?.message} readOnly={!canWrite} {...register(field)} {...extra} />
  );

  return (
    <form onSubmit={submit} noValidate className="card profile-section" aria-label={label}>
      {text('name', 'Name')}
      <div className="field-row">
        {text('brand', 'Brand')}
        {text('model', 'Model')}
      </div>
      {text('serial_number', 'Serial number')}
      <div className="field-row">
        {text('heads', 'Heads', { inputMode: 'numeric' })}
        {text('needles_per_head', 'Needles per head', { inputMode: 'numeric' })}
      </div>
      <div className="field-row">
        {text('max_spm', 'Maximum stitches per minute', { inputMode: 'numeric' })}
        {text('typical_spm', 'Typical stitches per minute', { inputMode: 'numeric' })}
      </div>
      <SelectField id={`${id}-status`} label="Status" error={errors.status?.message} disabled={!canWrite} {...register('status')}>
        {MACHINE_STATUSES.map((status) => (
          <option key={status} value={status}>
            {statusLabels[status]}
          </option>
        ))}
      </SelectField>
      {text('purchase_date', 'Purchase date', { type: 'date' })}
      <fieldset>
        <legend>Hoops and sewing fields (mm)</legend>
        {errors.hoops?.message ? <p className="field__error">{errors.hoops.message}</p> : null}
        {hoops.fields.length === 0 ? <p className="muted">No hoops listed.</p> : null}
        {hoops.fields.map((hoop, index) => (
          <div className="field-row" key={hoop.id}>
            <TextField
              id={`${id}-hoop-${hoop.id}-name`}
              label={`Hoop ${index + 1} name`}
              readOnly={!canWrite}
              error={errors.hoops?.[index]?.name?.message}
              {...register(`hoops.${index}.name`)}
            />
            <TextField
              id={`${id}-hoop-${hoop.id}-width`}
              label={`Hoop ${index + 1} width`}
              inputMode="numeric"
              readOnly={!canWrite}
              error={errors.hoops?.[index]?.width_mm?.message}
              {...register(`hoops.${index}.width_mm`)}
            />
            <TextField
              id={`${id}-hoop-${hoop.id}-height`}
              label={`Hoop ${index + 1} height`}
              inputMode="numeric"
              readOnly={!canWrite}
              error={errors.hoops?.[index]?.height_mm?.message}
              {...register(`hoops.${index}.height_mm`)}
            />
            {canWrite ? (
              <button type="button" className="button" onClick={() => hoops.remove(index)}>
                Remove hoop {index + 1}
              </button>
            ) : null}
          </div>
        ))}
        {canWrite ? (
          <button
            type="button"
            className="button"
            onClick={() => hoops.append({ name: '', width_mm: '', height_mm: '' }, { shouldFocus: false })}
          >
            Add hoop
          </button>
        ) : null}
      </fieldset>
      {intervals.fields.length > 0 ? (
        <fieldset className="interval-fields">
          <legend>Maintenance schedule</legend>
          <p className="muted">
            Each is due after the days or the stitches on the counter, whichever comes first, counted from the last time it was done (a
            service counts for all). Leave both blank for maintenance you do not schedule.
          </p>
          {intervals.fields.map((interval, index) => (
            <div className="field-row" key={interval.id}>
              <TextField
                id={`${id}-interval-${interval.kind}-days`}
                label={`${kindLabels[interval.kind]} every (days)`}
                inputMode="numeric"
                readOnly={!canWrite}
                error={errors.intervals?.[index]?.days?.message}
                {...register(`intervals.${index}.days`)}
              />
              <TextField
                id={`${id}-interval-${interval.kind}-stitches`}
                label={`${kindLabels[interval.kind]} every (stitches)`}
                inputMode="numeric"
                readOnly={!canWrite}
                error={errors.intervals?.[index]?.stitches?.message}
                {...register(`intervals.${index}.stitches`)}
              />
            </div>
          ))}
        </fieldset>
      ) : null}
      <TextAreaField id={`${id}-notes`} label="Notes" rows={3} error={errors.notes?.message} readOnly={!canWrite} {...register('notes')} />
      {children}
      <FormAlert message={alert} />
      <FormStatus message={done} />
      {canWrite ? (
        <button type="submit" className="button button--primary" disabled={formState.isSubmitting} ref={submitRef}>
          {submitLabel}
        </button>
      ) : null}
    </form>
  );
}
