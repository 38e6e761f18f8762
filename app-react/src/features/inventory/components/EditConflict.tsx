import { useEffect, useId, useRef } from 'react';

import type { Difference } from '../versioned-edit';

/**
 * A save refused because someone changed the entry meanwhile (409 edit_conflict): the saved
 * values next to the person's, and the two ways on. Shown next to the form's Save button, where
 * the person is looking, and focused as it appears so keyboard and screen-reader users land on
 * it. Replaces the earlier "Reload", which threw away what the person had typed.
 */
export function EditConflict({
  what,
  changedBy,
  differences,
  labels,
  busy,
  onReapply,
  onDiscard,
}: {
  /** "thread" or "machine". */
  what: string;
  /** Who saved the newer version, when the server says. */
  changedBy?: string | null;
  differences: Difference[];
  labels: Record<string, string>;
  busy: boolean;
  onReapply: () => void;
  onDiscard: () => void;
}) {
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const shown = (value: string) => (value === '' ? <span className="muted">(empty)</span> : value);
  return (
    <section className="edit-conflict" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} ref={heading} tabIndex={-1}>
        {changedBy ? `${changedBy} changed this ${what} while you were editing` : `Someone changed this ${what} while you were editing`}
      </h3>
      <p>Your changes are not saved yet. Compare them with what is saved now:</p>
      <table className="edit-conflict__table">
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Saved now</th>
            <th scope="col">Yours</th>
          </tr>
        </thead>
        <tbody>
          {differences.map((row) => (
            <tr key={row.field}>
              <th scope="row">{labels[row.field] ?? row.field}</th>
              <td>
                {shown(row.saved)}
                {row.changedMeanwhile ? <span className="edit-conflict__changed"> (just changed)</span> : null}
              </td>
              <td>{row.yours === null ? <span className="muted">you did not change it</span> : shown(row.yours)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>Saving your changes keeps what they changed in the fields you left alone.</p>
      <div className="actions">
        <button type="button" className="button button--primary" onClick={onReapply} disabled={busy}>
          Save my changes
        </button>
        <button type="button" className="button" onClick={onDiscard} disabled={busy}>
          Discard my changes
        </button>
      </div>
    </section>
  );
}
