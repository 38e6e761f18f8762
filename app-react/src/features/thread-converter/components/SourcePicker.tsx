import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';

import type { Converter, LineSummary, ResolvedSource, Source, ThreadView } from '@/lib/core';

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
  const ids = { query: useId(), results: useId(), line: useId(), hex: useId(), picker: useId() };
  // A shared link's thread fills in the search, so the person sees what they convert from.
  const shared = source && 'thread' in source ? source.thread : null;
  const [query, setQuery] = useState(shared?.code ?? '');
  const [line, setLine] = useState(shared && lines.some((l) => l.id === shared.line) ? shared.line : '');
  const [hexText, setHexText] = useState(source && 'hex' in source ? source.hex : '');
  const results = useMemo(() => (query.trim() ? converter.search(query, line ? [line] : [], RESULTS) : []), [converter, query, line]);
  const hexError = hexText.trim() && !HEX.test(hexText.trim());

  // The search is a combobox with a listbox popup (WAI-ARIA Authoring Practices, "list
  // autocomplete with manual selection"): focus stays in the input, the arrow keys move a
  // highlight through the results, Enter chooses it. Closed until the person types, so a shared
  // link's code does not open it.
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const expanded = open && results.length > 0;
  const highlighted = expanded && active < results.length ? active : -1;
  const optionId = (index: number) => `${ids.results}-${index}`;
  const activeId = highlighted >= 0 ? optionId(highlighted) : undefined;

  // Keep the highlighted result in view in the scrolling list. By hand rather than with
  // scrollIntoView, which would scroll the page too (and which jsdom lacks).
  const listRef = useRef<HTMLUListElement>(null);
  useEffect(() => {
    const list = listRef.current;
    const option = activeId ? document.getElementById(activeId) : null;
    if (!list || !option) return;
    const [outer, inner] = [list.getBoundingClientRect(), option.getBoundingClientRect()];
    if (inner.top < outer.top) list.scrollTop -= outer.top - inner.top;
    else if (inner.bottom > outer.bottom) list.scrollTop += inner.bottom - outer.bottom;
  }, [activeId]);

  function chooseHex(text: string) {
    setHexText(text);
    const trimmed = text.trim();
    if (HEX.test(trimmed)) {
      onChange({ hex: trimmed.startsWith('#') ? trimmed : `#${trimmed}` });
    }
  }

  function search(text: string) {
    setQuery(text);
    setOpen(true);
    setActive(-1);
  }

  function chooseThread(thread: ThreadView) {
    setQuery(thread.code);
    setOpen(false);
    setActive(-1);
    onChange({ thread: { line: thread.line, code: thread.code } });
  }

  function onSearchKey(event: KeyboardEvent<HTMLInputElement>) {
    if (event.nativeEvent.isComposing) return;
    const last = results.length - 1;
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        if (results.length === 0) return;
        event.preventDefault();
        const down = event.key === 'ArrowDown';
        // Alt+Down opens the list without moving into it; Alt+Up closes it.
        setOpen(down || !event.altKey);
        if (event.altKey) return;
        // From the input, Down goes to the first result and Up to the last; both wrap round.
        if (down) setActive(highlighted < 0 || highlighted === last ? 0 : highlighted + 1);
        else setActive(highlighted <= 0 ? last : highlighted - 1);
        return;
      }
      case 'Enter': {
        const thread = results[highlighted];
        if (!thread) return;
        event.preventDefault();
        chooseThread(thread);
        return;
      }
      case 'Escape':
        // The first Escape closes the list, the next one empties the input (as the browser
        // does by itself for a search field, which would otherwise do both at once).
        event.preventDefault();
        if (expanded) setOpen(false);
        else search('');
        return;
      case 'ArrowLeft':
      case 'ArrowRight':
      case 'Home':
      case 'End':
        // The caret moves in the text again: back from the list to the input.
        setActive(-1);
        return;
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
              role="combobox"
              aria-autocomplete="list"
              aria-expanded={expanded}
              aria-controls={ids.results}
              aria-activedescendant={activeId}
              value={query}
              placeholder="e.g. 1902 or navy"
              autoComplete="off"
              onChange={(event) => search(event.target.value)}
              onKeyDown={onSearchKey}
              onClick={() => setOpen(true)}
              onBlur={() => setOpen(false)}
            />
          </div>
          <div className="field">
            <label htmlFor={ids.line}>In line</label>
            <select
              id={ids.line}
              value={line}
              onChange={(event) => {
                setLine(event.target.value);
                setActive(-1);
              }}
            >
              <option value="">All lines</option>
              {lines.map((l) => (
                <option key={l.id} value={l.id}>
                  {l.display_name}
                </option>
              ))}
            </select>
          </div>
        </div>
        {/* Always in the page, hidden while closed, so that aria-controls names an element. */}
        {/* The mouse must not take focus from the input: the list closes when the input loses it. */}
        <ul
          ref={listRef}
          id={ids.results}
          role="listbox"
          className="thread-results"
          aria-label="Matching threads"
          hidden={!expanded}
          onMouseDown={(event) => event.preventDefault()}
        >
          {expanded &&
            results.map((thread, index) => (
              // Spaces between the parts, which the grid does not show, keep the words of the
              // option's name apart for screen readers.
              <li
                key={`${thread.line}:${thread.code}:${thread.hex}`}
                id={optionId(index)}
                role="option"
                aria-selected={index === highlighted}
                className={index === highlighted ? 'thread-option thread-option--active' : 'thread-option'}
                onClick={() => chooseThread(thread)}
              >
                <Swatch hex={thread.hex} />
                <span className="thread-option__code">{thread.code}</span>{' '}
                <span className="thread-option__name">{thread.name || thread.hex}</span>{' '}
                <span className="thread-option__line">{thread.line_name}</span>
              </li>
            ))}
        </ul>
        {/* Not an option of the list: a status, said when it appears. */}
        <div role="status">
          {query.trim() && results.length === 0 && (
            <p className="thread-results thread-results__empty">No thread matches “{query.trim()}”.</p>
          )}
        </div>
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
