import { useId, useState } from 'react';
import { Link } from 'react-router';

import { FormAlert, FormStatus } from '@/components/form';
import { inventoryThreadPath } from '@/config/paths';
import { newWriteKey } from '@/lib/offline/writes';
import { counted } from '@/lib/text';

import { useAdjustThread, useWaitingTaps } from '../api/adjust-thread';
import { useChangeThreads } from '../api/change-threads';
import { useSetQuantity, useWaitingCounts } from '../api/set-quantity';
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
  const adjust = useAdjustThread();
  const set = useSetQuantity();
  // Taps and counts made offline, waiting for the connection (docs/behaviour.md, "Offline").
  const waitingTaps = useWaitingTaps();
  const waitingCounts = useWaitingCounts();
  // Ordered by closeness to a colour: each thread says how far it is.
  const nearest = threads.some((thread) => thread.distance !== undefined);
  const [alert, setAlert] = useState<string | null>(null);
  // The threads ticked for one change of location or reorder point.
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [changed, setChanged] = useState<string | null>(null);
  const choose = (id: string, on: boolean) => {
    setChanged(null);
    const next = new Set(chosen);
    if (on) next.add(id);
    else next.delete(id);
    setChosen(next);
  };

  const labelOf = (thread: ThreadView) => (thread.code ? `${thread.code} ${thread.name}` : thread.name);
  const tap = (thread: ThreadView, delta: number) => {
    setAlert(null);
    adjust.mutate(
      { teamId, threadId: thread.id, delta, label: labelOf(thread), writeKey: newWriteKey() },
      { onError: (error) => setAlert(problemsOf(error, [], `The quantity of ${thread.name} could not be changed.`).alert) },
    );
  };

  const type = (thread: ThreadView, quantity: number, expected: number) => {
    setAlert(null);
    set.mutate(
      { teamId, threadId: thread.id, quantity, expected, label: labelOf(thread), writeKey: newWriteKey() },
      { onError: (error) => setAlert(problemsOf(error, [], `The count of ${thread.name} could not be saved.`).alert) },
    );
  };

  return (
    <>
      <FormAlert message={alert} />
      <FormStatus message={changed} />
      {canWrite && chosen.size > 0 ? (
        <ChangeChosen
          teamId={teamId}
          ids={[...chosen]}
          onDone={(message) => {
            setChosen(new Set());
            setChanged(message);
          }}
        />
      ) : null}
      <div className="table-scroll" role="region" aria-label="Threads" tabIndex={0}>
        <table className="bulk-table inventory-table">
          <thead>
            <tr>
              {canWrite ? (
                <th scope="col">
                  <span className="visually-hidden">Choose</span>
                </th>
              ) : null}
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
              const label = labelOf(thread);
              const waiting = waitingTaps.has(thread.id) || waitingCounts.has(thread.id);
              return (
                <tr key={thread.id}>
                  {canWrite ? (
                    <td className="inventory-table__choose">
                      <input
                        type="checkbox"
                        aria-label={`Choose ${label}`}
                        checked={chosen.has(thread.id)}
                        onChange={(event) => choose(thread.id, event.target.checked)}
                      />
                    </td>
                  ) : null}
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
                      {/* Each name starts with what its button shows (WCAG 2.5.3, Label in Name),
                          so a voice user can say "click plus 1"; the thread tells the rows apart. */}
                      {canWrite ? (
                        <button
                          type="button"
                          className="button"
                          aria-label={`−1: one fewer of ${label}`}
                          disabled={thread.quantity < 1}
                          onClick={() => tap(thread, -1)}
                        >
                          −1
                        </button>
                      ) : null}
                      {canWrite ? (
                        <CountInput
                          label={`Quantity of ${label}`}
                          quantity={thread.quantity}
                          onCount={(quantity, seen) => type(thread, quantity, seen)}
                          onInvalid={() => setAlert(`Give the count of ${thread.name} as a number, such as 4 or 2.5.`)}
                        />
                      ) : (
                        <output aria-label={`Quantity of ${label}`}>{amount(thread.quantity)}</output>
                      )}
                      {canWrite ? (
                        <button type="button" className="button" aria-label={`+1: one more of ${label}`} onClick={() => tap(thread, 1)}>
                          +1
                        </button>
                      ) : null}
                    </span>
                    {waiting ? <span className="chip chip--waiting">Waiting to be sent</span> : null}
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

/** One location and/or reorder point for the chosen threads; a box left empty changes nothing. */
function ChangeChosen({ teamId, ids, onDone }: { teamId: string; ids: string[]; onDone: (message: string) => void }) {
  const formId = useId();
  const change = useChangeThreads(teamId);
  const [location, setLocation] = useState('');
  const [point, setPoint] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const apply = async () => {
    setProblem(null);
    const pointText = point.trim().replace(',', '.');
    const reorderPoint = Number(pointText);
    if (pointText !== '' && (!Number.isFinite(reorderPoint) || reorderPoint < 0)) {
      setProblem('Give the reorder point as a number, such as 2 or 0.5.');
      return;
    }
    if (location.trim() === '' && pointText === '') {
      setProblem('Give a location or a reorder point to set.');
      return;
    }
    try {
      const changed = await change.mutateAsync({
        ids,
        ...(location.trim() === '' ? {} : { location: location.trim() }),
        ...(pointText === '' ? {} : { reorder_point: reorderPoint }),
      });
      onDone(`Changed ${counted(changed.length, 'thread')}.`);
    } catch (error) {
      setProblem(problemsOf(error, [], 'The threads could not be changed; none was.').alert);
    }
  };
  return (
    <form
      className="inventory-chosen"
      aria-label="Change the chosen threads"
      onSubmit={(event) => {
        event.preventDefault();
        void apply();
      }}
    >
      <p className="inventory-chosen__count">{counted(ids.length, 'thread')} chosen</p>
      <div className="field">
        <label htmlFor={`${formId}-location`}>Location</label>
        <input id={`${formId}-location`} value={location} onChange={(event) => setLocation(event.target.value)} />
      </div>
      <div className="field">
        <label htmlFor={`${formId}-point`}>Reorder point</label>
        <input id={`${formId}-point`} inputMode="decimal" value={point} onChange={(event) => setPoint(event.target.value)} />
      </div>
      <button type="submit" className="button button--primary" disabled={change.isPending}>
        Set for the chosen
      </button>
      <FormAlert message={problem} />
    </form>
  );
}

/**
 * A quantity typed straight into the list, saved on Enter or on leaving the box, as a count that
 * replaces the one shown when typing began (`seen`); Escape puts the shown one back.
 */
function CountInput({
  label,
  quantity,
  onCount,
  onInvalid,
}: {
  label: string;
  quantity: number;
  onCount: (quantity: number, seen: number) => void;
  onInvalid: () => void;
}) {
  // While typing: the text and the count it replaces; otherwise the count as the list has it.
  const [typing, setTyping] = useState<{ text: string; seen: number } | null>(null);
  const save = () => {
    if (!typing) return;
    setTyping(null);
    const text = typing.text.trim().replace(',', '.');
    const value = Number(text);
    if (text === '' || !Number.isFinite(value) || value < 0) onInvalid();
    else if (value !== typing.seen) onCount(value, typing.seen);
  };
  return (
    <input
      className="inventory-quantity__count"
      inputMode="decimal"
      aria-label={label}
      value={typing ? typing.text : amount(quantity)}
      onChange={(event) => setTyping({ text: event.target.value, seen: typing?.seen ?? quantity })}
      onBlur={save}
      onKeyDown={(event) => {
        if (event.key === 'Enter') save();
        if (event.key === 'Escape') setTyping(null);
      }}
    />
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
