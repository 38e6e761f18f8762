import { useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';

import { FormAlert, FormStatus } from '@/components/form';
import { pageTitle, paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';

import { useDeleteThread } from './api/delete-thread';
import { useCatalogueLines } from './api/get-catalogue-lines';
import { useThread } from './api/get-thread';
import { useUpdateThread } from './api/update-thread';
import { ConflictAlert } from './components/ConflictAlert';
import { RemoveButton } from './components/RemoveButton';
import { SelectField, Swatch, TextAreaField, TextField } from './components/Field';
import { NOT_A_NUMBER, type FormProblems, noProblems, numberOf, problemsOf } from './errors';
import type { InventoryAccess, ThreadInput, ThreadView } from './types';

const FIELDS = ['line', 'code', 'name', 'colour', 'quantity', 'spool_length_m', 'location', 'reorder_point', 'cost_per_spool', 'notes'] as const;
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
        // A fresh form for each version read: a reload after a clash shows the other person's values.
        <ThreadForm key={thread.data.version} teamId={teamId} thread={thread.data} canWrite={canWrite} onReload={() => void thread.refetch()} />
      ) : thread.isError ? (
        <FormAlert message={problemsOf(thread.error, [], 'The thread could not be loaded.').alert} />
      ) : (
        <p role="status">Loading…</p>
      )}
    </div>
  );
}

function ThreadForm({ teamId, thread, canWrite, onReload }: { teamId: string; thread: ThreadView; canWrite: boolean; onReload: () => void }) {
  const id = useId();
  const navigate = useNavigate();
  const lines = useCatalogueLines();
  const [values, setValues] = useState<Values>(() => valuesOf(thread));
  const [problems, setProblems] = useState<FormProblems>(noProblems);
  const [conflict, setConflict] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const update = useUpdateThread(teamId, thread.id);
  const remove = useDeleteThread(teamId, thread.id);
  const set = (field: Field) => (event: { target: { value: string } }) => setValues({ ...values, [field]: event.target.value });
  const catalogue = values.line !== '';

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setDone(null);
    setConflict(null);
    const parsed = inputOf(values);
    if ('fields' in parsed) {
      setProblems({ fields: parsed.fields, alert: null });
      return;
    }
    setProblems(noProblems);
    try {
      await update.mutateAsync({ ...parsed.input, version: thread.version });
      setDone('Saved.');
    } catch (error) {
      if (error instanceof ApiError && error.code === 'edit_conflict') setConflict(error.message);
      else setProblems(problemsOf(error, FIELDS, 'The thread could not be saved.'));
    }
  };

  const erase = async () => {
    try {
      await remove.mutateAsync();
      await navigate(paths.inventoryThreads);
    } catch (error) {
      setProblems(problemsOf(error, [], 'The thread could not be removed.'));
    }
  };

  const field = (name: Field, label: string, extra: Record<string, unknown> = {}) => (
    <TextField
      id={`${id}-${name}`}
      label={label}
      value={values[name]}
      onChange={set(name)}
      error={problems.fields[name]}
      readOnly={!canWrite}
      {...extra}
    />
  );

  return (
    <form onSubmit={submit} noValidate className="card profile-section" aria-label="Thread">
      <p>
        <Swatch hex={thread.colour} /> <strong>{thread.code ? `${thread.code} ${thread.name}` : thread.name}</strong>{' '}
        {thread.line_name ? `(${thread.line_name})` : '(custom)'}
        {thread.low ? <span className="chip inventory-low">Low stock</span> : null}
      </p>
      <p className="muted">
        Last changed {new Date(thread.updated_at).toLocaleString()}
        {thread.updated_by_email ? ` by ${thread.updated_by_email}` : ''}.
      </p>
      <SelectField id={`${id}-line`} label="Line" value={values.line} onChange={set('line')} error={problems.fields.line} disabled={!canWrite}>
        <option value="">Custom thread (no line)</option>
        {(lines.data ?? []).map((entry) => (
          <option key={entry.id} value={entry.id}>
            {entry.displayName}
          </option>
        ))}
        {values.line && !lines.data?.some((entry) => entry.id === values.line) ? <option value={values.line}>{thread.line_name ?? values.line}</option> : null}
      </SelectField>
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
      {field('reorder_point', 'Reorder point', { inputMode: 'decimal' })}
      {field('cost_per_spool', 'Cost per spool', { inputMode: 'decimal' })}
      <TextAreaField id={`${id}-notes`} label="Notes" rows={3} value={values.notes} onChange={set('notes')} error={problems.fields.notes} readOnly={!canWrite} />
      <ConflictAlert message={conflict} onReload={onReload} />
      <FormAlert message={problems.alert} />
      <FormStatus message={done} />
      {canWrite ? (
        <div className="actions">
          <button type="submit" className="button button--primary" disabled={update.isPending}>
            Save
          </button>
          <RemoveButton label="Remove from inventory" title="Remove this thread?" busy={remove.isPending} onConfirm={erase}>
            <p>
              {thread.code ? `${thread.code} ${thread.name}` : thread.name} leaves the team's inventory, with its quantity and
              notes.
            </p>
          </RemoveButton>
        </div>
      ) : null}
    </form>
  );
}
