import { Link } from 'react-router';

import { LoadingStatus } from '@/components/LoadingStatus';
import { FormAlert } from '@/components/form';
import { inventoryMachinePath, pageTitle } from '@/config/paths';
import { sentence } from '@/lib/text';

import { useCreateMachine } from './api/create-machine';
import { useMachines } from './api/get-machines';
import { dueText } from './components/DueList';
import { MACHINE_FIELDS, MachineForm, useMachineForm } from './components/MachineForm';
import { noProblems, problemsOf } from './errors';
import { type InventoryAccess, statusLabels } from './types';

const shown = (field: string) => (MACHINE_FIELDS as readonly string[]).includes(field) || field.startsWith('hoops[');

/** `/inventory/machines`: the team's machines with their status and next due maintenance. */
export function MachinesPage({ teamId, canWrite }: InventoryAccess) {
  const machines = useMachines(teamId);
  const create = useCreateMachine(teamId);
  const form = useMachineForm();
  return (
    <div className="inventory">
      <title>{pageTitle('Machines')}</title>
      <h1>Machines</h1>
      {machines.isError ? <FormAlert message={problemsOf(machines.error, [], 'The machines could not be loaded.').alert} /> : null}
      {machines.data ? (
        machines.data.length === 0 ? (
          <p>No machines yet.</p>
        ) : (
          <ul className="item-list" aria-label="Machines">
            {machines.data.map((machine) => {
              const next = machine.due[0];
              return (
                <li key={machine.id} className="card">
                  <h2>
                    <Link to={inventoryMachinePath(machine.id)}>{machine.name}</Link>
                  </h2>
                  <p>
                    {[machine.brand, machine.model].filter(Boolean).join(' ')} · {statusLabels[machine.status]}
                  </p>
                  <p className={next?.overdue ? 'inventory-overdue' : undefined}>
                    Next maintenance: {next ? next.overdue ? <strong>{dueText(next)}</strong> : dueText(next) : 'none due'}
                  </p>
                </li>
              );
            })}
          </ul>
        )
      ) : teamId ? (
        <LoadingStatus query={machines}>Loading machines…</LoadingStatus>
      ) : null}
      {canWrite ? (
        <>
          <h2>Add machine</h2>
          <MachineForm
            state={form}
            adding
            canWrite
            label="Add machine"
            submitLabel="Add machine"
            save={async (draft) => {
              try {
                const machine = await create.mutateAsync(draft);
                return { problems: noProblems, done: sentence(`Added ${machine.name}`) };
              } catch (error) {
                return { problems: problemsOf(error, shown, 'The machine could not be added.'), done: null };
              }
            }}
          />
        </>
      ) : null}
    </div>
  );
}
