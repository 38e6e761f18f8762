import { useId, useState } from 'react';

import type { LineSummary } from '@/lib/core';

interface Props {
  lines: LineSummary[];
  selected: string[];
  onChange: (ids: string[]) => void;
}

/** Which lines to find matches in: a filterable list of checkboxes, chosen ones first. */
export function TargetLines({ lines, selected, onChange }: Props) {
  const filterId = useId();
  const [filter, setFilter] = useState('');
  const needle = filter.trim().toLowerCase();
  const shown = lines
    .filter((line) => line.kind === 'thread')
    .filter((line) => !needle || line.displayName.toLowerCase().includes(needle) || selected.includes(line.id));

  function toggle(id: string, on: boolean) {
    onChange(on ? [...selected, id] : selected.filter((s) => s !== id));
  }

  return (
    <fieldset className="target-lines">
      <legend>Find matches in</legend>
      <div className="field">
        <label htmlFor={filterId}>Filter lines</label>
        <input
          id={filterId}
          type="search"
          value={filter}
          placeholder="e.g. Madeira"
          onChange={(event) => setFilter(event.target.value)}
        />
      </div>
      <ul className="target-lines__list">
        {shown.map((line) => (
          <li key={line.id}>
            <label className="check">
              <input
                type="checkbox"
                checked={selected.includes(line.id)}
                onChange={(event) => toggle(line.id, event.target.checked)}
              />
              <span>{line.displayName}</span>
              <span className="check__meta">{line.threadCount}</span>
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
