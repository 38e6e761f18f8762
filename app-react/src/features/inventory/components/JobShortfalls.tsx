// The shopping list's part for jobs (docs/behaviour.md, "Jobs"): what the team's jobs are short
// of, by line, with the spools that cover it and their cost where known; a line is marked
// ordered, then received, which adds the spools to stock.
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'react-router';

import { FormAlert } from '@/components/form';
import { inventoryThreadPath } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { useOnline } from '@/lib/offline/online';

import { jobShortfallsQueryOptions, useOrderSpools, useReceiveOrder } from '../api/get-job-stock';
import { Swatch } from './Field';

const metres = new Intl.NumberFormat('en', { maximumFractionDigits: 0 });

export function JobShortfalls({ teamId, canWrite, currency }: { teamId: string; canWrite: boolean; currency: string | null }) {
  const id = useId();
  const online = useOnline();
  const list = useQuery(jobShortfallsQueryOptions(teamId));
  const order = useOrderSpools(teamId);
  const receive = useReceiveOrder(teamId);
  const [error, setError] = useState<string | null>(null);
  const money = (amount: number) =>
    currency ? new Intl.NumberFormat('en', { style: 'currency', currency }).format(amount) : amount.toFixed(2);
  const run = async (work: () => Promise<unknown>) => {
    setError(null);
    try {
      await work();
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'That could not be saved.');
    }
  };
  const lines = list.data?.lines ?? [];
  const orders = list.data?.orders ?? [];
  if (!list.data || (lines.length === 0 && orders.length === 0)) return null;
  const writable = canWrite && online && !order.isPending && !receive.isPending;
  return (
    <section className="job-shortfalls" aria-labelledby={id}>
      <h2 id={id}>Short for jobs</h2>
      <p className="lead">What the draft, ready and running jobs need beyond what is on the shelf, in whole spools.</p>
      {lines.length > 0 ? (
        <table className="shopping-table">
          <thead>
            <tr>
              <th scope="col">Thread</th>
              <th scope="col" className="shopping-table__number">
                Short by
              </th>
              <th scope="col" className="shopping-table__number">
                Ordered
              </th>
              <th scope="col" className="shopping-table__number">
                Buy
              </th>
            </tr>
          </thead>
          {lines.map((line) => (
            <tbody key={line.line ?? 'custom'}>
              <tr className="shopping-table__group">
                <th scope="colgroup" colSpan={4}>
                  {line.name}
                  {line.cost !== null && line.to_order > 0 ? ` · ${money(line.cost)}` : ''}
                </th>
              </tr>
              {line.items.map((item) => (
                <tr key={item.thread.id}>
                  <th scope="row">
                    <span className="shopping-table__thread">
                      <Swatch hex={item.thread.colour} />{' '}
                      <span>
                        <Link to={inventoryThreadPath(item.thread.id)}>{item.thread.label}</Link>
                        <span className="muted shopping-table__location">for {item.jobs.join(', ')}</span>
                        {canWrite && item.to_order > 0 ? (
                          <button
                            type="button"
                            className="button no-print job-shortfalls__order"
                            disabled={!writable}
                            onClick={() => void run(() => order.mutateAsync({ threadId: item.thread.id, spools: item.to_order }))}
                          >
                            Mark {item.to_order} ordered
                          </button>
                        ) : null}
                      </span>
                    </span>
                  </th>
                  <td className="shopping-table__number">{metres.format(item.short_m)} m</td>
                  <td className="shopping-table__number">{item.ordered}</td>
                  <td className="shopping-table__number shopping-table__buy">{item.to_order}</td>
                </tr>
              ))}
            </tbody>
          ))}
        </table>
      ) : null}
      {orders.length > 0 ? (
        <>
          <h3>Ordered, not yet received</h3>
          <ul className="job-orders">
            {orders.map((placed) => {
              const item = lines.flatMap((line) => line.items).find((candidate) => candidate.thread.id === placed.thread_id);
              return (
                <li key={placed.id}>
                  {placed.spools} {placed.spools === 1 ? 'spool' : 'spools'} of{' '}
                  <Link to={inventoryThreadPath(placed.thread_id)}>{item?.thread.label ?? 'a thread'}</Link>{' '}
                  {canWrite ? (
                    <button
                      type="button"
                      className="button no-print"
                      disabled={!writable}
                      onClick={() => void run(() => receive.mutateAsync(placed.id))}
                    >
                      Received
                    </button>
                  ) : null}
                </li>
              );
            })}
          </ul>
        </>
      ) : null}
      <FormAlert message={error} />
    </section>
  );
}
