// A labelled input with its own error message, tied together for screen readers. The rest of
// the props go to the input itself, `ref` included, so react-hook-form's `register` spreads
// onto a field as it does onto an input.
import type { ComponentProps, ReactNode } from 'react';

import type { CatalogueLine } from '../types';

interface FieldShell {
  id: string;
  label: string;
  error?: string | undefined;
  hint?: string;
}

function describedBy(id: string, error: string | undefined, hint: string | undefined) {
  const ids = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return { 'aria-invalid': error ? true : undefined, 'aria-describedby': ids || undefined } as const;
}

function Shell({ id, label, error, hint, children }: FieldShell & { children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="muted">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="field__error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function TextField({ id, label, error, hint, ...input }: FieldShell & ComponentProps<'input'>) {
  return (
    <Shell id={id} label={label} error={error} {...(hint ? { hint } : {})}>
      <input id={id} {...describedBy(id, error, hint)} {...input} />
    </Shell>
  );
}

export function TextAreaField({ id, label, error, hint, ...input }: FieldShell & ComponentProps<'textarea'>) {
  return (
    <Shell id={id} label={label} error={error} {...(hint ? { hint } : {})}>
      <textarea id={id} {...describedBy(id, error, hint)} {...input} />
    </Shell>
  );
}

export function SelectField({ id, label, error, hint, children, ...select }: FieldShell & ComponentProps<'select'>) {
  return (
    <Shell id={id} label={label} error={error} {...(hint ? { hint } : {})}>
      <select id={id} {...describedBy(id, error, hint)} {...select}>
        {children}
      </select>
    </Shell>
  );
}

/** A colour sample. Decorative: the code or hex is always written next to it. */
export function Swatch({ hex }: { hex: string }) {
  return <span className="swatch swatch--md" style={{ backgroundColor: hex }} aria-hidden="true" />;
}

/** The catalogue's lines as a select's options, by display name (none until they have loaded). */
export function LineOptions({ lines }: { lines: readonly CatalogueLine[] | undefined }) {
  return (lines ?? []).map((entry) => (
    <option key={entry.id} value={entry.id}>
      {entry.display_name}
    </option>
  ));
}
