// A full edit of a thread or a machine names the version it was made from; the server refuses
// one made from an older version (409 edit_conflict), since every change raises the version.
// This keeps what the person typed through such a refusal: it shows the saved values next to
// theirs, and puts their changes on top of the saved version in one action (or drops them).
import { useLayoutEffect, useState } from 'react';
import { type FieldValues, type UseFormReturn, useWatch } from 'react-hook-form';

import { ApiError } from '@/lib/api-client';

/** Each field of a form as the person reads it ("Shelf A", "Cap 130 × 60 mm"), in form order. */
export type FieldTexts = Record<string, string>;

/** One field where the saved version and the person's edit differ. */
export interface Difference {
  field: string;
  /** The value saved now. */
  saved: string;
  /** What the person typed; null when they left the field as it was when they opened it. */
  yours: string | null;
  /** Someone changed this field after the person opened the form. */
  changedMeanwhile: boolean;
}

/**
 * The fields the person should compare: those where the saved version and their edit differ,
 * given `opened` (what the form started from), `saved` (the newer version) and `mine`.
 */
export function differences(opened: FieldTexts, saved: FieldTexts, mine: FieldTexts): Difference[] {
  return Object.keys(mine)
    .filter((field) => saved[field] !== mine[field])
    .map((field) => ({
      field,
      saved: saved[field] ?? '',
      yours: mine[field] === opened[field] ? null : (mine[field] ?? ''),
      changedMeanwhile: saved[field] !== opened[field],
    }));
}

/**
 * The person's edit put on top of a newer version: the fields they changed as they typed them,
 * every other field as it is saved now (so the other person's changes stay). Fields are compared
 * by their text, so a value typed back as it was counts as unchanged.
 */
export function reapply<V extends object>(text: (values: V) => FieldTexts, opened: V, saved: V, mine: V): V {
  const [before, theirs] = [text(opened), text(mine)];
  const merged = { ...saved };
  for (const field of Object.keys(theirs) as (keyof V & string)[]) {
    if (theirs[field] !== before[field]) merged[field] = mine[field];
  }
  return merged;
}

const same = (a: FieldTexts, b: FieldTexts) => Object.keys(a).every((field) => a[field] === b[field]);

/** A save refused because someone changed the entry after the form was opened. */
export const isEditConflict = (error: unknown) => error instanceof ApiError && error.code === 'edit_conflict';

/**
 * The versions behind `form`, a react-hook-form form that edits a versioned entry (it holds
 * what the person types). `server` is the entry as the page last read it, `read` gives the
 * form's values for an entry, and `text` each field as the person reads it.
 *
 * The form edits from `base`, the version it was opened at. A newer `server` replaces the base
 * only where that loses nothing: while the person has changed nothing, or when no field the form
 * shows changed (a maintenance entry logged on the same page raises the machine's version too).
 * Otherwise the save runs into the newer version and the person chooses (`conflict`).
 */
export function useVersionedEdit<T extends { version: number }, V extends FieldValues>(
  form: UseFormReturn<V>,
  server: T,
  read: (entry: T) => V,
  text: (values: V) => FieldTexts,
) {
  const [base, setBase] = useState(server);
  const [newer, setNewer] = useState<T | null>(null);
  // The values of a newer version the form follows, for the layout effect below to show.
  const [followed, setFollowed] = useState<{ values: V } | null>(null);
  // What the person has typed, for the comparison (kept current as they type on).
  const values = useWatch({ control: form.control }) as V;
  const load = (entry: T, values = read(entry)) => {
    setBase(entry);
    form.reset(values);
  };

  // A newer `server` becomes the base in the render that sees it, not in an effect a render
  // later. The form is compared as react-hook-form holds it now: `values` catches up a render
  // after a reset.
  if (server.version !== base.version && newer === null) {
    const opened = text(read(base));
    if (same(text(form.getValues()), opened)) {
      setBase(server);
      setFollowed({ values: read(server) });
    } else if (same(opened, text(read(server)))) setBase(server);
  }
  // The form's values live in react-hook-form, which an effect, not the render, may reset;
  // a layout effect, so no frame shows the form on the old version.
  useLayoutEffect(() => {
    if (followed) form.reset(followed.values);
  }, [followed, form]);

  return {
    base,
    /** The saved version the last save ran into, and the fields to compare; null without one. */
    conflict: newer && { saved: newer, differences: differences(text(read(base)), text(read(newer)), text(values)) },
    /** After a save: the form goes on from what the server stored. */
    saved(entry: T) {
      load(entry);
      setNewer(null);
    },
    /**
     * A save made from `from` ran into `saved`. True when no field the form shows differs
     * between the two, so the same values can be saved again from it without asking.
     */
    ranInto(from: T, saved: T): boolean {
      if (same(text(read(from)), text(read(saved)))) {
        setBase(saved);
        return true;
      }
      setNewer(saved);
      return false;
    },
    /** The person's changes on top of the saved version, which the form now edits from. */
    reapplied(): { values: V; from: T } | null {
      if (!newer) return null;
      const merged = reapply(text, read(base), read(newer), form.getValues());
      load(newer, merged);
      setNewer(null);
      return { values: merged, from: newer };
    },
    /** Drops the person's changes: the form shows the saved version. */
    discard() {
      if (!newer) return;
      load(newer);
      setNewer(null);
    },
  };
}
