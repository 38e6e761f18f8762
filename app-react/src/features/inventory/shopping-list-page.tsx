import { Link } from 'react-router';

import { LoadingStatus } from '@/components/LoadingStatus';
import { FormAlert } from '@/components/form';
import { inventoryThreadPath, pageTitle, paths } from '@/config/paths';

import { exportCsvUrl } from './api/export-threads';
import { useShoppingList } from './api/get-shopping-list';
import { Swatch } from './components/Field';
import { JobShortfalls } from './components/JobShortfalls';
import { amount } from './components/ThreadList';
import { problemsOf } from './errors';
import type { InventoryAccess, ThreadView } from './types';

/** The threads of one line (or the custom ones), in the list's order. */
interface Group {
  name: string;
  threads: ThreadView[];
}

function byLine(threads: ThreadView[]): Group[] {
  const groups: Group[] = [];
  for (const thread of threads) {
    const name = thread.line_name ?? 'Custom threads';
    const last = groups.at(-1);
    if (last?.name === name) last.threads.push(thread);
    else groups.push({ name, threads: [thread] });
  }
  return groups;
}

/** "1 spool", "3 spools". */
export function spools(count: number): string {
  return `${count.toLocaleString()} ${count === 1 ? 'spool' : 'spools'}`;
}

/**
 * `/inventory/shopping-list`: what the jobs are short of (docs/behaviour.md, "Jobs"), then every
 * low thread with how many spools to buy of each (docs/behaviour.md, "Low stock"), by line, to
 * print or take to the shop.
 * `defaultReorderPoint`: the team's, for threads without their own (null when none is set).
 */
export function ShoppingListPage({
  teamId,
  canWrite,
  defaultReorderPoint,
  currency = null,
}: InventoryAccess & { defaultReorderPoint: number | null; currency?: string | null }) {
  const list = useShoppingList(teamId);
  const threads = list.data ?? [];
  const total = threads.reduce((sum, thread) => sum + thread.to_buy, 0);
  return (
    <div className="inventory shopping-list">
      <title>{pageTitle('Shopping List')}</title>
      <p className="no-print">
        <Link to={paths.inventoryThreads}>← Thread Inventory</Link>
      </p>
      <h1>Shopping List</h1>
      <p className="lead">
        The threads that are low, and how many spools to buy of each so that it is above its reorder point again. A thread with none left is
        always low;{' '}
        {defaultReorderPoint === null
          ? 'a thread without a reorder point of its own is low only then.'
          : `a thread without a reorder point of its own is low at ${spools(defaultReorderPoint)} or fewer (the team's default).`}
      </p>
      <div className="actions no-print">
        <button type="button" className="button button--primary" onClick={() => window.print()}>
          Print
        </button>
        <a className="button" href={exportCsvUrl(teamId, { low: true })} download>
          Download CSV
        </a>
      </div>
      {list.isError ? <FormAlert message={problemsOf(list.error, [], 'The shopping list could not be loaded.').alert} /> : null}
      <LoadingStatus query={list}>Loading the shopping list…</LoadingStatus>
      {list.data && threads.length === 0 ? <p>Nothing to buy: no thread is low.</p> : null}
      {threads.length > 0 ? (
        <>
          <p role="status">
            {threads.length === 1 ? '1 thread' : `${threads.length.toLocaleString()} threads`} to buy, {spools(total)} in all.
          </p>
          <table className="shopping-table">
            <thead>
              <tr>
                <th scope="col">Thread</th>
                <th scope="col" className="shopping-table__number">
                  In stock
                </th>
                <th scope="col" className="shopping-table__number">
                  Reorder at
                </th>
                <th scope="col" className="shopping-table__number">
                  Buy
                </th>
              </tr>
            </thead>
            {byLine(threads).map((group) => (
              <tbody key={group.name}>
                <tr className="shopping-table__group">
                  <th scope="colgroup" colSpan={4}>
                    {group.name}
                  </th>
                </tr>
                {group.threads.map((thread) => (
                  <tr key={thread.id}>
                    <th scope="row">
                      <span className="shopping-table__thread">
                        <Swatch hex={thread.colour} />{' '}
                        <span>
                          <Link to={inventoryThreadPath(thread.id)}>{thread.code ? `${thread.code} ${thread.name}` : thread.name}</Link>
                          {thread.location ? <span className="muted shopping-table__location">{thread.location}</span> : null}
                        </span>
                      </span>
                    </th>
                    <td className="shopping-table__number">{amount(thread.quantity)}</td>
                    <td className="shopping-table__number">
                      {thread.reorder_point !== null ? amount(thread.reorder_point) : (defaultReorderPoint ?? '—')}
                    </td>
                    <td className="shopping-table__number shopping-table__buy">{thread.to_buy}</td>
                  </tr>
                ))}
              </tbody>
            ))}
          </table>
        </>
      ) : null}
      <JobShortfalls teamId={teamId} canWrite={canWrite} currency={currency} />
    </div>
  );
}
