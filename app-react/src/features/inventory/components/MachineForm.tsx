import { useId, useState } from 'react';

import { FormAlert, FormStatus } from '@/components/form';

import { NOT_A_NUMBER, type FormProblems, noProblems, numberOf } from '../errors';
import { MACHINE_STATUSES, type Machine, type MachineDraft, type MachineStatus, statusLabels } from '../types';
import { SelectField, TextAreaField, TextField } from './Field';

const TEXTS = ['name', 'brand', 'model', 'serial_number', 'purchase_date', 'notes'] as const;
const NUMBERS = ['heads', 'needles_per_head', 'max_spm', 'typical_spm'] as const;
export const MACHINE_FIELDS = [...TEXTS, ...NUMBERS, 'status', 'hoops'] as const;

interface HoopValues {
  key: number;
  name: string;
  width_mm: string;
  height_mm: string;
}

type Values = Record<(typeof TEXTS)[number] | (typeof NUMBERS)[number], string> & { status: MachineStatus };

/** Everything the form holds: the fields as typed, and the hoops. */
export type MachineValues = Values & { hoops: HoopValues[] };

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
};

let nextKey = 0;

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
      key: nextKey++,
      name: hoop.name ?? '',
      width_mm: String(hoop.width_mm),
      height_mm: String(hoop.height_mm),
    })),
  };
}

/** Each field as the person reads it: the status by its label, the hoops in one line. */
export function machineTexts(values: MachineValues): Record<string, string> {
  const hoop = (h: HoopValues) => `${h.name.trim() ? `${h.name.trim()} ` : ''}${h.width_mm} × ${h.height_mm} mm`;
  const { hoops, status, ...fields } = values;
  return { ...fields, status: statusLabels[status], hoops: hoops.map(hoop).join(', ') };
}

/** The draft to send, or the fields that cannot be read. */
export function draftOf(values: Values, hoops: HoopValues[]): { draft: MachineDraft } | { fields: Record<string, string> } {
  const fields: Record<string, string> = {};
  const whole = (field: string, raw: string) => {
    const value = numberOf(raw);
    if (value === NOT_A_NUMBER || (value !== null && !Number.isInteger(value))) {
      fields[field] = 'Enter a whole number.';
      return null;
    }
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
  };
  return Object.keys(fields).length > 0 ? { fields } : { draft };
}

/**
 * A machine's fields, hoops included: empty to add one, filled to edit one. `save` answers the
 * problems to show (none when it worked). The form keeps its values itself, unless `values` and
 * `onValues` are given (the edit page, which keeps them through a clash with someone's change);
 * `children` (that clash) show just above the submit button.
 */
export function MachineForm({
  machine,
  canWrite,
  submitLabel,
  label,
  save,
  values: given,
  onValues,
  submitRef,
  children,
}: {
  machine?: Machine;
  canWrite: boolean;
  submitLabel: string;
  label: string;
  save: (draft: MachineDraft, values: MachineValues) => Promise<{ problems: FormProblems; done: string | null }>;
  values?: MachineValues;
  onValues?: (values: MachineValues) => void;
  submitRef?: React.Ref<HTMLButtonElement>;
  children?: React.ReactNode;
}) {
  const id = useId();
  const [own, setOwn] = useState(() => machineValuesOf(machine));
  const form = given ?? own;
  const setForm = onValues ?? setOwn;
  const { hoops } = form;
  const [problems, setProblems] = useState<FormProblems>(noProblems);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (field: keyof Values) => (event: { target: { value: string } }) => setForm({ ...form, [field]: event.target.value });
  const setHoops = (next: HoopValues[]) => setForm({ ...form, hoops: next });
  const setHoop = (key: number, field: 'name' | 'width_mm' | 'height_mm', value: string) =>
    setHoops(hoops.map((hoop) => (hoop.key === key ? { ...hoop, [field]: value } : hoop)));

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setDone(null);
    const parsed = draftOf(form, hoops);
    if ('fields' in parsed) {
      setProblems({ fields: parsed.fields, alert: null });
      return;
    }
    setBusy(true);
    try {
      const result = await save(parsed.draft, form);
      setProblems(result.problems);
      setDone(result.done);
      if (!machine && result.done) setForm(machineValuesOf(undefined));
    } finally {
      setBusy(false);
    }
  };

  const text = (field: keyof Values, name: string, extra: Record<string, unknown> = {}) => (
    <TextField
      id={`${id}-${field}`}
      label={name}
      value={form[field]}
      onChange={set(field)}
      error={problems.fields[field]}
      readOnly={!canWrite}
      {...extra}
    />
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
      <SelectField
        id={`${id}-status`}
        label="Status"
        value={form.status}
        onChange={set('status')}
        error={problems.fields.status}
        disabled={!canWrite}
      >
        {MACHINE_STATUSES.map((status) => (
          <option key={status} value={status}>
            {statusLabels[status]}
          </option>
        ))}
      </SelectField>
      {text('purchase_date', 'Purchase date', { type: 'date' })}
      <fieldset>
        <legend>Hoops and sewing fields (mm)</legend>
        {problems.fields.hoops ? <p className="field__error">{problems.fields.hoops}</p> : null}
        {hoops.length === 0 ? <p className="muted">No hoops listed.</p> : null}
        {hoops.map((hoop, index) => (
          <div className="field-row" key={hoop.key}>
            <TextField
              id={`${id}-hoop-${hoop.key}-name`}
              label={`Hoop ${index + 1} name`}
              value={hoop.name}
              readOnly={!canWrite}
              onChange={(e) => setHoop(hoop.key, 'name', e.target.value)}
              error={problems.fields[`hoops[${index}].name`]}
            />
            <TextField
              id={`${id}-hoop-${hoop.key}-width`}
              label={`Hoop ${index + 1} width`}
              inputMode="numeric"
              value={hoop.width_mm}
              readOnly={!canWrite}
              onChange={(e) => setHoop(hoop.key, 'width_mm', e.target.value)}
              error={problems.fields[`hoops[${index}].width_mm`]}
            />
            <TextField
              id={`${id}-hoop-${hoop.key}-height`}
              label={`Hoop ${index + 1} height`}
              inputMode="numeric"
              value={hoop.height_mm}
              readOnly={!canWrite}
              onChange={(e) => setHoop(hoop.key, 'height_mm', e.target.value)}
              error={problems.fields[`hoops[${index}].height_mm`]}
            />
            {canWrite ? (
              <button type="button" className="button" onClick={() => setHoops(hoops.filter((h) => h.key !== hoop.key))}>
                Remove hoop {index + 1}
              </button>
            ) : null}
          </div>
        ))}
        {canWrite ? (
          <button
            type="button"
            className="button"
            onClick={() => setHoops([...hoops, { key: nextKey++, name: '', width_mm: '', height_mm: '' }])}
          >
            Add hoop
          </button>
        ) : null}
      </fieldset>
      <TextAreaField
        id={`${id}-notes`}
        label="Notes"
        rows={3}
        value={form.notes}
        onChange={set('notes')}
        error={problems.fields.notes}
        readOnly={!canWrite}
      />
      {children}
      <FormAlert message={problems.alert} />
      <FormStatus message={done} />
      {canWrite ? (
        <button type="submit" className="button button--primary" disabled={busy} ref={submitRef}>
          {submitLabel}
        </button>
      ) : null}
    </form>
  );
}
