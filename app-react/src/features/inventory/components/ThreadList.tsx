import { useState } from 'react';
import { Link } from 'react-router';

import { FormAlert } from '@/components/form';
import { inventoryThreadPath } from '@/config/paths';

import { useAdjustThread } from '../api/adjust-thread';
import { problemsOf } from '../errors';
import type { ThreadView } from '../types';
import { Swatch } from './Field';

/** How an amount of spools reads: 2, 1.5. */
export const amount = (value: number) => String(Math.round(value * 100) / 100);

/** The threads of one page: a table that scrolls sideways on a narrow screen. */
export function ThreadList({ teamId, threads, canWrite }: { teamId: string; threads: ThreadView[]; canWrite: boolean }) {
  const adjust = useAdjustThread(teamId);
  const [alert, setAlert] = useState<string | null>(null);

  const tap = (thread: ThreadView, delta: number) => {
    setAlert(null);
    adjust.mutate(
      { threadId: thread.id, delta },
      { onError: (error) => setAlert(problemsOf(error, [], `The quantity of ${thread.name} could not be changed.`).alert) },
    );
  };

  return (
    <>
      <FormAlert message={alert} />
      <div className="table-scroll" role="region" aria-label="Threads" tabIndex={0}>
        <table className="bulk-table inventory-table">
          <thead>
            <tr>
              <th scope="col">Colour</th>
              <th scope="col">Code</th>
              <th scope="col">Name</th>
              <th scope="col">Line</th>
              <th scope="col">Quantity</th>
              <th scope="col">Location</th>
            </tr>
          </thead>
          <tbody>
            {threads.map((thread) => {
              const label = thread.code ? `${thread.code} ${thread.name}` : thread.name;
              return (
                <tr key={thread.id}>
                  <td>
                    <Swatch hex={thread.colour} /> <span className="muted">{thread.colour}</span>
                  </td>
                  <td>{thread.code ?? '—'}</td>
                  <td>
                    <Link to={inventoryThreadPath(thread.id)}>{thread.name}</Link>
                    {thread.low ? (
                      <>
                        {' '}
                        <span className="chip inventory-low">Low stock</span>
                      </>
                    ) : null}
                  </td>
                  <td>{thread.line_name ?? 'Custom'}</td>
                  <td>
                    <span className="inventory-quantity">
                      {canWrite ? (
                        <button
                          type="button"
                          className="button"
                          aria-label={`One fewer of ${label}`}
                          disabled={thread.quantity < 1}
                          onClick={() => tap(thread, -1)}
                        >
                          −1
                        </button>
                      ) : null}
                      <output aria-label={`Quantity of ${label}`}>{amount(thread.quantity)}</output>
                      {canWrite ? (
                        <button type="button" className="button" aria-label={`One more of ${label}`} onClick={() => tap(thread, 1)}>
                          +1
                        </button>
                      ) : null}
                    </span>
                  </td>
                  <td>{thread.location || '—'}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}
