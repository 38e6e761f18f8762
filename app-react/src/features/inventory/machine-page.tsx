import { useEffect, useId, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { Link, useNavigate } from 'react-router';

import { LoadingStatus } from '@/components/LoadingStatus';
import { FormAlert, FormStatus } from '@/components/form';
import { pageTitle, paths } from '@/config/paths';
import { today } from '@/lib/dates';
import { wholeNumber } from '@/lib/text';
import { isOffline, newWriteKey } from '@/lib/offline/writes';

import { useAddMaintenance, useWaitingMaintenance } from './api/add-maintenance';
import { useDeleteMachine } from './api/delete-machine';
import { useDeleteMaintenance } from './api/delete-maintenance';
import { useMachine } from './api/get-machine';
import { useUpdateMachine } from './api/update-machine';
import { EditConflict } from './components/EditConflict';
import { DueList } from './components/DueList';
import { RemoveButton } from './components/RemoveButton';
import { SelectField, TextAreaField, TextField } from './components/Field';
import { MACHINE_FIELDS, MACHINE_LABELS, MachineForm, machineTexts, machineValuesOf, useMachineForm } from './components/MachineForm';
import { type FormProblems, noProblems, problemsOf } from './errors';
import { useInventoryForm } from './form';
import { type InventoryAccess, MAINTENANCE_KINDS, type Machine, type MachineDraft, type MaintenanceKind, kindLabels } from './types';
import { isEditConflict, useVersionedEdit } from './versioned-edit';

const shown = (field: string) => (MACHINE_FIELDS as readonly string[]).includes(field) || field.startsWith('hoops[');

/** `/inventory/machines/{machineId}`: one machine, its maintenance log and what is due next. */
export function MachinePage({ teamId, canWrite, machineId }: InventoryAccess & { machineId: string }) {
  const machine = useMachine(teamId, machineId);
  const data = machine.data;
  return (
    <div className="inventory">
      <title>{pageTitle('Machine Details')}</title>
      <nav className="breadcrumb" aria-label="Breadcrumb">
        <ol>
          <li>
            <Link to={paths.inventoryMachines}>Machines</Link>
          </li>
          <li aria-current="page">Machine Details</li>
        </ol>
      </nav>
      {/* The machine's own name heads its page; the breadcrumb and the tab keep the page's. */}
      <h1>{data?.name ?? 'Machine Details'}</h1>
      {data ? (
        <>
          <section aria-labelledby="due-title">
            <h2 id="due-title">Next maintenance</h2>
            <DueList due={data.due} label="Maintenance due" />
          </section>
          <MaintenanceLog teamId={teamId} machine={data} canWrite={canWrite} />
          <EditMachine teamId={teamId} machine={data} canWrite={canWrite} reload={async () => (await machine.refetch()).data} />
        </>
      ) : machine.isError ? (
        <FormAlert message={problemsOf(machine.error, [], 'The machine could not be loaded.').alert} />
      ) : (
        <LoadingStatus query={machine}>Loading…</LoadingStatus>
      )}
    </div>
  );
}

function EditMachine({
  teamId,
  machine,
  canWrite,
  reload,
}: {
  teamId: string;
  /** The machine as the page last read it; the form edits from the version it was opened at. */
  machine: Machine;
  canWrite: boolean;
  /** Reads the machine again, after a save ran into someone else's change. */
  reload: () => Promise<Machine | undefined>;
}) {
  const update = useUpdateMachine(teamId, machine.id);
  const remove = useDeleteMachine(teamId, machine.id);
  const navigate = useNavigate();
  const state = useMachineForm(machine);
  const edit = useVersionedEdit(state.form, machine, machineValuesOf, machineTexts);
  const saveButton = useRef<HTMLButtonElement>(null);
  const [alert, setAlert] = useState<string | null>(null);

  /**
   * Saves `draft` as an edit of version `from`. When someone changed the machine meanwhile but
   * no field the form shows (a maintenance entry logged), saves once more without asking.
   */
  const save = async (draft: MachineDraft, from: Machine, again = true): Promise<{ problems: FormProblems; done: string | null }> => {
    try {
      edit.saved(await update.mutateAsync({ ...draft, version: from.version }));
      return { problems: noProblems, done: 'Saved.' };
    } catch (error) {
      if (!isEditConflict(error)) return { problems: problemsOf(error, shown, 'The machine could not be saved.'), done: null };
      const saved = await reload();
      if (!saved)
        return {
          problems: { fields: {}, alert: 'Someone changed this machine meanwhile, and it could not be read again. Reload the page.' },
          done: null,
        };
      if (edit.ranInto(from, saved) && again) return save(draft, saved, false);
      return { problems: noProblems, done: null };
    }
  };

  return (
    <>
      <h2>Details</h2>
      <MachineForm
        state={state}
        canWrite={canWrite}
        label="Machine"
        submitLabel="Save"
        submitRef={saveButton}
        save={(draft) => save(draft, edit.base)}
      >
        {edit.conflict ? (
          <EditConflict
            what="machine"
            differences={edit.conflict.differences}
            labels={MACHINE_LABELS}
            busy={update.isPending}
            onReapply={() => {
              // The form's own submit, so its checks and its status line serve this save too; made
              // once the form holds the merged values.
              flushSync(() => edit.reapplied());
              saveButton.current?.focus();
              saveButton.current?.form?.requestSubmit();
            }}
            onDiscard={() => {
              edit.discard();
              saveButton.current?.focus();
            }}
          />
        ) : null}
      </MachineForm>
      {canWrite ? (
        <div className="danger-zone">
          <RemoveButton
            label="Remove machine"
            title="Remove this machine?"
            busy={remove.isPending}
            onConfirm={async () => {
              setAlert(null);
              try {
                await remove.mutateAsync();
                await navigate(paths.inventoryMachines);
              } catch (error) {
                setAlert(problemsOf(error, [], 'The machine could not be removed.').alert);
              }
            }}
          >
            <p>{machine.name} and its maintenance log leave the team's inventory.</p>
          </RemoveButton>
          <FormAlert message={alert} />
        </div>
      ) : null}
    </>
  );
}

/** Named as the server names them, so its field messages land by their inputs. */
interface LogFields {
  performed_on: string;
  kind: MaintenanceKind;
  stitch_counter: string;
  notes: string;
}

function MaintenanceLog({ teamId, machine, canWrite }: { teamId: string; machine: Machine; canWrite: boolean }) {
  const id = useId();
  const add = useAddMaintenance();
  const waiting = useWaitingMaintenance(machine.id);
  const remove = useDeleteMaintenance(teamId, machine.id);
  const { form, alert, done, setDone, show, onSubmit } = useInventoryForm<LogFields>({
    defaultValues: { performed_on: today(), kind: 'oiling', stitch_counter: '', notes: '' },
  });
  const { register, formState, setValue } = form;
  const { errors } = formState;
  // One entry as typed is one write: its key is made anew only when the person changes a field,
  // so a second press of the button (a double tap, online or offline) finds it sent already.
  const [writes] = useState(() => ({ key: newWriteKey(), sent: new Set<string>() }));
  useEffect(() => {
    const watching = form.watch((_values, { type }) => {
      if (type === 'change') writes.key = newWriteKey();
    });
    return () => watching.unsubscribe();
  }, [form, writes]);

  const submit = onSubmit(async ({ performed_on: date, kind, stitch_counter: counter, notes }) => {
    // Typed as the machine shows it: "1,250,000" as well as "1250000".
    const stitches = counter.trim() === '' ? null : wholeNumber(counter);
    if (counter.trim() !== '' && stitches === null) {
      show({ fields: { stitch_counter: 'Enter the counter as a whole number.' }, alert: null });
      return;
    }
    const key = writes.key;
    if (writes.sent.has(key)) {
      setDone(`Already logged: ${kindLabels[kind].toLowerCase()} on ${date}. Change a field to log another.`);
      return;
    }
    writes.sent.add(key);
    const write = {
      teamId,
      machineId: machine.id,
      machineName: machine.name,
      entry: { performed_on: date, kind, notes, stitch_counter: stitches },
      writeKey: key,
    };
    const clear = () => {
      setValue('notes', '');
      setValue('stitch_counter', '');
    };
    // Offline, the entry waits for the connection (docs/behaviour.md, "Offline"): no waiting here.
    if (isOffline()) {
      add.mutate(write);
      setDone(`Kept on this device: ${kindLabels[kind].toLowerCase()} on ${date} is logged when the connection returns.`);
      clear();
      return;
    }
    try {
      await add.mutateAsync(write);
      setDone(`Logged ${kindLabels[kind].toLowerCase()} on ${date}.`);
      clear();
    } catch (error) {
      // Not logged: the same entry may be sent again.
      writes.sent.delete(key);
      show(problemsOf(error, ['performed_on', 'kind', 'notes', 'stitch_counter'], 'The maintenance could not be logged.'));
    }
  });

  const log = machine.maintenance ?? [];
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Maintenance log</h2>
      {log.length === 0 && waiting.length === 0 ? (
        <p className="muted">Nothing logged yet.</p>
      ) : (
        <ul className="item-list" aria-label="Maintenance log">
          {log.map((entry) => (
            <li key={entry.id}>
              {entry.performed_on} — {kindLabels[entry.kind]}
              {entry.stitch_counter !== null ? ` at ${entry.stitch_counter.toLocaleString('en')} stitches` : ''}
              {entry.notes ? `: ${entry.notes}` : ''}
              {canWrite ? (
                <>
                  {' '}
                  <button
                    type="button"
                    className="link-button"
                    disabled={remove.isPending}
                    onClick={() => remove.mutate(entry.id)}
                    aria-label={`Remove ${kindLabels[entry.kind].toLowerCase()} of ${entry.performed_on}`}
                  >
                    Remove
                  </button>
                </>
              ) : null}
            </li>
          ))}
          {waiting.map((entry, index) => (
            // Not yet on the server: no id of their own.
            <li key={`waiting-${index}`}>
              {entry.performed_on} — {kindLabels[entry.kind]}
              {entry.stitch_counter != null ? ` at ${entry.stitch_counter.toLocaleString('en')} stitches` : ''}
              {entry.notes ? `: ${entry.notes}` : ''} <span className="chip chip--waiting">Waiting to be sent</span>
            </li>
          ))}
        </ul>
      )}
      {canWrite ? (
        <form onSubmit={submit} noValidate className="card profile-section" aria-label="Log maintenance">
          <h3>Log maintenance</h3>
          <div className="field-row">
            <TextField id={`${id}-date`} label="Date" type="date" error={errors.performed_on?.message} {...register('performed_on')} />
            <SelectField id={`${id}-kind`} label="Kind" error={errors.kind?.message} {...register('kind')}>
              {MAINTENANCE_KINDS.map((value) => (
                <option key={value} value={value}>
                  {kindLabels[value]}
                </option>
              ))}
            </SelectField>
          </div>
          <TextField
            id={`${id}-counter`}
            label="Stitch counter"
            inputMode="numeric"
            error={errors.stitch_counter?.message}
            {...register('stitch_counter')}
          />
          <TextAreaField id={`${id}-notes`} label="Notes" rows={2} error={errors.notes?.message} {...register('notes')} />
          <button type="submit" className="button button--primary" disabled={add.isPending}>
            Log maintenance
          </button>
          <FormAlert message={alert} />
          <FormStatus message={done} />
        </form>
      ) : null}
    </section>
  );
}
