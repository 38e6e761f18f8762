import { useId, useState } from 'react';

import type { LineSummary } from '@/lib/core';

interface Props {
  lines: LineSummary[];
  selected: string[];
  onChange: (ids: string[]) => void;
}

/** Which lines to find matches in: the chosen lines (each removable), and a filterable list of
 * checkboxes to choose from. */
export function TargetLines({ lines, selected, onChange }: Props) {
  const filterId = useId();
  const [filter, setFilter] = useState('');
  const needle = filter.trim().toLowerCase();
  const threadLines = lines.filter((line) => line.kind === 'thread');
  const shown = threadLines.filter((line) => !needle || line.display_name.toLowerCase().includes(needle));
  const chosen = selected.flatMap((id) => threadLines.filter((line) => line.id === id));

  function toggle(id: string, on: boolean) {
    onChange(on ? [...selected, id] : selected.filter((s) => s !== id));
  }

  return (
    <fieldset className="target-lines">
      <legend>Find matches in</legend>
      {chosen.length > 0 && (
        <ul className="chips" aria-label="Chosen lines">
          {chosen.map((line) => (
            <li key={line.id}>
              {/* "Remove Sulky Rayon", named by its content: an aria-label must hold all the text
                  a button shows (WCAG 2.5.3, Label in Name), and the × is no word to say. */}
              <button type="button" className="chip" onClick={() => toggle(line.id, false)}>
                <span className="visually-hidden">Remove</span> {line.display_name} <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="field">
        <label htmlFor={filterId}>Filter lines</label>
        <input id={filterId} type="search" value={filter} placeholder="e.g. Madeira" onChange={(event) => setFilter(event.target.value)} />
      </div>
      <ul className="target-lines__list" aria-label="Thread lines">
        {shown.map((line) => (
          <li key={line.id}>
            <label className="check">
              <input type="checkbox" checked={selected.includes(line.id)} onChange={(event) => toggle(line.id, event.target.checked)} />
              <span>{line.display_name}</span>
              <span className="check__meta">{line.thread_count}</span>
            </label>
          </li>
        ))}
        {shown.length === 0 && <li className="muted">No line matches “{filter.trim()}”.</li>}
      </ul>
    </fieldset>
  );
}
