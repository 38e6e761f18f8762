import { useId, useRef } from 'react';
import { Controller, useWatch } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';

import { LoadingStatus } from '@/components/LoadingStatus';
import { FormAlert, FormStatus } from '@/components/form';
import { pageTitle, paths } from '@/config/paths';

import { useDeleteThread } from './api/delete-thread';
import { useCatalogueLines } from './api/get-catalogue-lines';
import { useThread } from './api/get-thread';
import { useUpdateThread } from './api/update-thread';
import { EditConflict } from './components/EditConflict';
import { RemoveButton } from './components/RemoveButton';
import { Reservations } from './components/Reservations';
import { LineOptions, SelectField, Swatch, TextAreaField, TextField } from './components/Field';
import { NOT_A_NUMBER, numberOf, problemsOf } from './errors';
import { useInventoryForm } from './form';
import type { InventoryAccess, ThreadInput, ThreadView } from './types';
import { isEditConflict, useVersionedEdit } from './versioned-edit';

const FIELDS = [
  'line',
  'code',
  'name',
  'colour',
  'quantity',
  'spool_length_m',
  'location',
  'reorder_point',
  'cost_per_spool',
  'notes',
] as const;
type Field = (typeof FIELDS)[number];
type Values = Record<Field, string>;

const text = (value: number | string | null | undefined) => (value === null || value === undefined ? '' : String(value));

export function valuesOf(thread: ThreadView): Values {
  return {
    line: text(thread.line),
    code: text(thread.code),
    name: thread.name,
    colour: thread.colour,
    quantity: text(thread.quantity),
    spool_length_m: text(thread.spool_length_m),
    location: thread.location,
    reorder_point: text(thread.reorder_point),
    cost_per_spool: text(thread.cost_per_spool),
    notes: thread.notes,
  };
}

/** The edit to send, or the fields whose numbers cannot be read. */
export function inputOf(values: Values): { input: ThreadInput } | { fields: Record<string, string> } {
  const fields: Record<string, string> = {};
  const number = (field: Field) => {
    const value = numberOf(values[field]);
    if (value === NOT_A_NUMBER) {
      fields[field] = 'Enter a number, e.g. 2 or 1.5.';
      return null;
    }
    return value;
  };
  const catalogue = values.line !== '';
  const input: ThreadInput = {
    ...(catalogue ? { line: values.line, code: values.code.trim() } : { name: values.name.trim(), colour: values.colour }),
    quantity: number('quantity'),
    spool_length_m: number('spool_length_m'),
    location: values.location.trim(),
    reorder_point: number('reorder_point'),
    cost_per_spool: number('cost_per_spool'),
    notes: values.notes,
  };
  return Object.keys(fields).length > 0 ? { fields } : { input };
}

/** What each field is called on the form, for the comparison after a clash. */
const LABELS: Record<Field, string> = {
  line: 'Line',
  code: 'Code',
  name: 'Name',
  colour: 'Colour',
  quantity: 'Quantity',
  spool_length_m: 'Spool length (m)',
  location: 'Location',
  reorder_point: 'Reorder point',
  cost_per_spool: 'Cost per spool',
  notes: 'Notes',
};

/** `/inventory/threads/{threadId}`: one thread, edited from the version read (409 on a clash). */
export function ThreadPage({ teamId, canWrite, threadId }: InventoryAccess & { threadId: string }) {
  const thread = useThread(teamId, threadId);
  return (
    <div className="inventory">
      <title>{pageTitle('Thread Details')}</title>
      <p>
        <Link to={paths.inventoryThreads}>← Thread Inventory</Link>
      </p>
      <h1>Thread Details</h1>
      {thread.data ? (
        <>
          <ThreadForm teamId={teamId} thread={thread.data} canWrite={canWrite} reload={async () => (await thread.refetch()).data} />
          <Reservations teamId={teamId} threadId={thread.data.id} />
        </>
      ) : thread.isError ? (
        <FormAlert message={problemsOf(thread.error, [], 'The thread could not be loaded.').alert} />
      ) : (
        <LoadingStatus query={thread}>Loading…</LoadingStatus>
      )}
    </div>
  );
}

function ThreadForm({
  teamId,
  thread,
  canWrite,
  reload,
}: {
  teamId: string;
  /** The thread as the page last read it; the form edits from the version it was opened at. */
  thread: ThreadView;
  canWrite: boolean;
  /** Reads the thread again, after a save ran into someone else's change. */
  reload: () => Promise<ThreadView | undefined>;
}) {
  const id = useId();
  const navigate = useNavigate();
  const lines = useCatalogueLines();
  const lineName = (line: string) => lines.data?.find((entry) => entry.id === line)?.display_name ?? line;
  const { form, alert, done, setDone, show, clear, onSubmit } = useInventoryForm<Values>({ defaultValues: valuesOf(thread) });
  const { register, control, formState } = form;
  const { errors } = formState;
  const edit = useVersionedEdit(form, thread, valuesOf, (values: Values) => ({
    ...values,
    line: values.line ? lineName(values.line) : 'Custom thread',
  }));
  const { base } = edit;
  const saveButton = useRef<HTMLButtonElement>(null);
  const update = useUpdateThread(teamId, thread.id);
  const remove = useDeleteThread(teamId, thread.id);
  const line = useWatch({ control, name: 'line' });
  const catalogue = line !== '';

  /**
   * Saves `mine` as an edit of version `from`, and says whether it was saved. When someone
   * changed the thread meanwhile but no field the form shows, saves once more without asking.
   */
  const save = async (mine: Values, from: ThreadView, again = true): Promise<boolean> => {
    clear();
    const parsed = inputOf(mine);
    if ('fields' in parsed) {
      show({ fields: parsed.fields, alert: null });
      return false;
    }
    try {
      edit.saved(await update.mutateAsync({ ...parsed.input, version: from.version }));
      setDone('Saved.');
      return true;
    } catch (error) {
      if (!isEditConflict(error)) {
        show(problemsOf(error, FIELDS, 'The thread could not be saved.'));
        return false;
      }
      const saved = await reload();
      if (!saved) {
        show({ fields: {}, alert: 'Someone changed this thread meanwhile, and it could not be read again. Reload the page.' });
        return false;
      }
      return edit.ranInto(from, saved) && again && save(mine, saved, false);
    }
  };

  const submit = onSubmit(async (values) => {
    await save(values, base);
  });

  const erase = async () => {
    try {
      await remove.mutateAsync();
      await navigate(paths.inventoryThreads);
    } catch (error) {
      show(problemsOf(error, [], 'The thread could not be removed.'));
    }
  };

  const field = (name: Field, label: string, extra: Record<string, unknown> = {}) => (
    <TextField id={`${id}-${name}`} label={label} error={errors[name]?.message} readOnly={!canWrite} {...register(name)} {...extra} />
  );

  return (
    <form onSubmit={submit} noValidate className="card profile-section" aria-label="Thread">
      <p>
        <Swatch hex={base.colour} /> <strong>{base.code ? `${base.code} ${base.name}` : base.name}</strong>{' '}
        {base.line_name ? `(${base.line_name})` : '(custom)'}
        {base.low ? <span className="chip inventory-low">Low stock</span> : null}
      </p>
      <p className="muted">
        {/* No one is named only once the person who changed it deleted their account. */}
        Last changed {new Date(base.updated_at).toLocaleString()} by {base.updated_by_email ?? 'a former member'}.
      </p>
      {/* Controlled, unlike the other fields: its options change when the catalogue's lines
          arrive, and only React re-selects the value among new options. */}
      <Controller
        control={control}
        name="line"
        render={({ field: select }) => (
          <SelectField id={`${id}-line`} label="Line" error={errors.line?.message} {...select} disabled={!canWrite}>
            <option value="">Custom thread (no line)</option>
            <LineOptions lines={lines.data} />
            {line && !lines.data?.some((entry) => entry.id === line) ? <option value={line}>{base.line_name ?? line}</option> : null}
          </SelectField>
        )}
      />
      {catalogue ? (
        field('code', 'Code')
      ) : (
        <>
          {field('name', 'Name')}
          {field('colour', 'Colour', { type: 'color' })}
        </>
      )}
      {field('quantity', 'Quantity', { inputMode: 'decimal' })}
      {field('spool_length_m', 'Spool length (m)', { inputMode: 'numeric' })}
      {field('location', 'Location')}
      {field('reorder_point', 'Reorder point', {
        inputMode: 'decimal',
        hint: "Low at or below this. Empty: the team's default reorder point, if it has one.",
      })}
      {field('cost_per_spool', 'Cost per spool', { inputMode: 'decimal' })}
      <TextAreaField id={`${id}-notes`} label="Notes" rows={3} error={errors.notes?.message} readOnly={!canWrite} {...register('notes')} />
      {edit.conflict ? (
        <EditConflict
          what="thread"
          changedBy={edit.conflict.saved.updated_by_email}
          differences={edit.conflict.differences}
          labels={LABELS}
          busy={update.isPending}
          onReapply={() => {
            const next = edit.reapplied();
            saveButton.current?.focus();
            if (next) void save(next.values, next.from);
          }}
          onDiscard={() => {
            edit.discard();
            clear();
            setDone('Your changes were discarded: the form shows what is saved.');
            saveButton.current?.focus();
          }}
        />
      ) : null}
      <FormAlert message={alert} />
      <FormStatus message={done} />
      {canWrite ? (
        <div className="actions">
          <button type="submit" className="button button--primary" disabled={update.isPending} ref={saveButton}>
            Save
          </button>
          <RemoveButton label="Remove from inventory" title="Remove this thread?" busy={remove.isPending} onConfirm={erase}>
            <p>{base.code ? `${base.code} ${base.name}` : base.name} leaves the team's inventory, with its quantity and notes.</p>
          </RemoveButton>
        </div>
      ) : null}
    </form>
  );
}
