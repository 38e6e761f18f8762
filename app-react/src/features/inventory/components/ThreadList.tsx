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

/**
 * The threads of one page: a table on a wide screen; on a phone the same markup shows each
 * thread as a card (style/components.css, "Inventory"), so nothing scrolls sideways and every
 * control exists once.
 */
export function ThreadList({ teamId, threads, canWrite }: { teamId: string; threads: ThreadView[]; canWrite: boolean }) {
  const adjust = useAdjustThread(teamId);
  // Ordered by closeness to a colour: each thread says how far it is.
  const nearest = threads.some((thread) => thread.distance !== undefined);
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
              {nearest ? (
                <th scope="col">
                  <abbr title="Colour difference (CIEDE2000)">ΔE</abbr>
                </th>
              ) : null}
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
                  <td className="inventory-table__colour">
                    <Swatch hex={thread.colour} /> <span className="muted inventory-table__hex">{thread.colour}</span>
                  </td>
                  {nearest ? (
                    <td className="inventory-table__distance">{thread.distance == null ? '—' : <Distance value={thread.distance} />}</td>
                  ) : null}
                  <td className="inventory-table__code">{thread.code ?? '—'}</td>
                  <td className="inventory-table__name">
                    <Link to={inventoryThreadPath(thread.id)}>{thread.name}</Link>
                    {thread.low ? (
                      <>
                        {' '}
                        <span className="chip inventory-low">Low stock</span>
                      </>
                    ) : null}
                  </td>
                  <td className="inventory-table__line" data-label="Line">
                    {thread.line_name ?? 'Custom'}
                  </td>
                  <td className="inventory-table__quantity">
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
                  <td className="inventory-table__location" data-label="Location">
                    {thread.location || '—'}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}

/** "ΔE 2.3", read out as "colour difference 2.3". */
function Distance({ value }: { value: number }) {
  const text = value.toFixed(1);
  return (
    <span className="inventory-distance">
      <span aria-hidden="true">ΔE {text}</span>
      <span className="visually-hidden">Colour difference {text}</span>
    </span>
  );
}
