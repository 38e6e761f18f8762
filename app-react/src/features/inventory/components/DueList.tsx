import { type DueView, kindLabels } from '../types';

/** "Oiling: due 2026-12-01 or at 1,200,000 stitches — overdue" (a schedule in stitches alone
 * has no date). */
export function dueText(due: DueView): string {
  const when = [due.date ?? null, due.at_stitches === null ? null : `at ${due.at_stitches.toLocaleString('en')} stitches`].filter(Boolean);
  const state = due.overdue ? ' — overdue' : '';
  const never = due.never_done ? ' (never logged)' : '';
  return `${kindLabels[due.kind]}: due ${when.join(' or ')}${never}${state}`;
}

/** When each kind of maintenance is next due, soonest first; overdue ones stand out. */
export function DueList({ due, label }: { due: DueView[]; label: string }) {
  if (due.length === 0) return <p className="muted">No maintenance due.</p>;
  return (
    <ul className="item-list" aria-label={label}>
      {due.map((entry) => (
        <li key={entry.kind} className={entry.overdue ? 'inventory-overdue' : undefined}>
          {entry.overdue ? <strong>{dueText(entry)}</strong> : dueText(entry)}
        </li>
      ))}
    </ul>
  );
}
