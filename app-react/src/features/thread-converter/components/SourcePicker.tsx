import { useId, useState } from 'react';

import type { Converter, LineSummary, ResolvedSource, Source } from '@/lib/core';

import { Swatch } from './Swatch';

const RESULTS = 12;
/** #RGB or #RRGGBB, the hash optional: what the core's hex parser reads. */
const HEX = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i;

interface Props {
  converter: Converter;
  lines: LineSummary[];
  source: Source | null;
  resolved: ResolvedSource | null;
  onChange: (source: Source) => void;
}

/** Choose what to convert from: search a thread by code or name (optionally in one line), or
 * type or pick a colour. */
export function SourcePicker({ converter, lines, source, resolved, onChange }: Props) {
  const ids = { query: useId(), line: useId(), hex: useId(), picker: useId() };
  // A shared link's thread fills in the search, so the person sees what they convert from.
  const shared = source && 'thread' in source ? source.thread : null;
  const [query, setQuery] = useState(shared?.code ?? '');
  const [line, setLine] = useState(shared && lines.some((l) => l.id === shared.line) ? shared.line : '');
  const [hexText, setHexText] = useState(source && 'hex' in source ? source.hex : '');
  const results = query.trim() ? converter.search(query, line ? [line] : [], RESULTS) : [];
  const hexError = hexText.trim() && !HEX.test(hexText.trim());

  function chooseHex(text: string) {
    setHexText(text);
    const trimmed = text.trim();
    if (HEX.test(trimmed)) {
      onChange({ hex: trimmed.startsWith('#') ? trimmed : `#${trimmed}` });
    }
  }

  return (
    <div className="source-picker">
      <fieldset className="source-picker__thread">
        <legend>From a thread</legend>
        <div className="field-row">
          <div className="field">
            <label htmlFor={ids.query}>Code or colour name</label>
            <input
              id={ids.query}
              type="search"
              value={query}
              placeholder="e.g. 1902 or navy"
              autoComplete="off"
              onChange={(event) => setQuery(event.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor={ids.line}>In line</label>
            <select id={ids.line} value={line} onChange={(event) => setLine(event.target.value)}>
              <option value="">All lines</option>
              {lines.map((l) => (
                <option key={l.id} value={l.id}>
                  {l.display_name}
                </option>
              ))}
            </select>
          </div>
        </div>
        {query.trim() && (
          <ul className="thread-results" aria-label="Matching threads">
            {results.length === 0 && <li className="thread-results__empty">No thread matches “{query.trim()}”.</li>}
            {results.map((thread) => {
              const selected = !!source && 'thread' in source && source.thread.line === thread.line && source.thread.code === thread.code;
              return (
                <li key={`${thread.line}:${thread.code}:${thread.hex}`}>
                  <button
                    type="button"
                    className="thread-option"
                    aria-pressed={selected}
                    onClick={() => onChange({ thread: { line: thread.line, code: thread.code } })}
                  >
                    <Swatch hex={thread.hex} />
                    <span className="thread-option__code">{thread.code}</span>
                    <span className="thread-option__name">{thread.name || thread.hex}</span>
                    <span className="thread-option__line">{thread.line_name}</span>
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </fieldset>

      <fieldset className="source-picker__colour">
        <legend>Or from a colour</legend>
        <div className="field-row">
          <div className="field">
            <label htmlFor={ids.hex}>Hex colour</label>
            <input
              id={ids.hex}
              value={hexText}
              placeholder="#C8102E"
              autoComplete="off"
              spellCheck={false}
              aria-invalid={hexError ? true : undefined}
              aria-describedby={hexError ? `${ids.hex}-error` : undefined}
              onChange={(event) => chooseHex(event.target.value)}
            />
            {hexError && (
              <p id={`${ids.hex}-error`} className="field__error">
                Use six hex digits, like #C8102E.
              </p>
            )}
          </div>
          <div className="field field--narrow">
            <label htmlFor={ids.picker}>Pick</label>
            <input
              id={ids.picker}
              type="color"
              value={resolved?.hex.toLowerCase() ?? '#c8102e'}
              onChange={(event) => chooseHex(event.target.value.toUpperCase())}
            />
          </div>
        </div>
      </fieldset>
    </div>
  );
}
