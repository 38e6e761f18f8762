// The thread list's "closest to colour" control: a colour picker and the same colour as text
// (#RRGGBB or RRGGBB), which orders the list by colour difference.
import { hexOf } from '../thread-filters';

interface Props {
  id: string;
  /** As typed. */
  value: string;
  /** Shown under the field: what is typed is not a colour. */
  error?: string | null;
  onChange: (value: string) => void;
  onBlur: () => void;
}

export function ClosestColour({ id, value, error, onChange, onBlur }: Props) {
  const hex = hexOf(value);
  const described = [`${id}-hint`, error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className="field inventory-closest">
      <label htmlFor={id}>Closest to colour</label>
      <div className="inventory-closest__inputs">
        <input
          type="color"
          aria-label="Pick the colour"
          // The picker cannot be empty: black until a colour is chosen.
          value={(hex ?? '#000000').toLowerCase()}
          onChange={(event) => onChange(event.target.value.toUpperCase())}
        />
        <input
          id={id}
          type="text"
          placeholder="#RRGGBB"
          autoComplete="off"
          spellCheck={false}
          size={9}
          value={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={described}
          onChange={(event) => onChange(event.target.value)}
          onBlur={onBlur}
        />
        {value !== '' ? (
          <button type="button" className="link-button" aria-label="Clear the colour" onClick={() => onChange('')}>
            Clear
          </button>
        ) : null}
      </div>
      <p id={`${id}-hint`} className="muted">
        Nearest first, with the colour difference (ΔE).
      </p>
      {error ? (
        <p id={`${id}-error`} className="field__error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
