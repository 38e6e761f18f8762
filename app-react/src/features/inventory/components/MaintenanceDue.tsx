import { Link } from 'react-router';

import { inventoryMachinePath, paths } from '@/config/paths';
import { today as todayHere } from '@/lib/dates';

import { useMachines } from '../api/get-machines';
import type { DueView } from '../types';
import { dueText } from './DueList';

/** How far ahead the dashboard looks: what falls due within a week shows with what is overdue. */
export const DUE_SOON_DAYS = 7;

/** Whether `due` is overdue, or falls due by date within `DUE_SOON_DAYS` of `today` (YYYY-MM-DD). */
export function dueSoon(due: DueView, today: string): boolean {
  if (due.overdue) return true;
  if (!due.date) return false;
  const soon = new Date(`${today}T00:00:00Z`);
  soon.setUTCDate(soon.getUTCDate() + DUE_SOON_DAYS);
  return due.date <= soon.toISOString().slice(0, 10);
}

/** The team's maintenance overdue or due this week, machine by machine (retired ones left out). */
export function MaintenanceDue({ teamId, today = todayHere() }: { teamId: string; today?: string }) {
  const machines = useMachines(teamId);
  if (machines.isError) return <p className="muted">The maintenance due could not be read.</p>;
  if (!machines.data) return <p role="status">Reading the machines…</p>;
  const due = machines.data
    .filter((machine) => machine.status !== 'retired')
    .map((machine) => ({ machine, due: machine.due.filter((entry) => dueSoon(entry, today)) }))
    .filter((entry) => entry.due.length > 0);
  if (machines.data.length === 0) {
    return (
      <p className="muted">
        No machines listed. <Link to={paths.inventoryMachines}>Add a machine</Link> to follow its maintenance.
      </p>
    );
  }
  if (due.length === 0) return <p>Nothing is due this week.</p>;
  return (
    <ul className="item-list" aria-label="Maintenance due this week">
      {due.map(({ machine, due: entries }) => (
        <li key={machine.id}>
          <Link to={inventoryMachinePath(machine.id)}>{machine.name}</Link>
          <ul className="due-lines">
            {entries.map((entry) => (
              <li key={entry.kind} className={entry.overdue ? 'inventory-overdue' : undefined}>
                {entry.overdue ? <strong>{dueText(entry)}</strong> : dueText(entry)}
              </li>
            ))}
          </ul>
        </li>
      ))}
    </ul>
  );
}
