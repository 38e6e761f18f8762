import { useDeferredValue, useId, useState } from 'react';

import { FormAlert, FormStatus } from '@/components/form';

import { useCreateThread } from '../api/create-thread';
import { useCatalogueSearch } from '../api/search-catalogue';
import { NOT_A_NUMBER, type FormProblems, noProblems, numberOf, problemsOf } from '../errors';
import type { CatalogueThread, ThreadInput } from '../types';
import { Swatch, TextField } from './Field';

/**
 * Adds one thread: found in the catalogue by code or name (each with its swatch), or a custom
 * one with a name and a colour; then how many.
 */
export function AddThread({ teamId }: { teamId: string }) {
  const id = useId();
  const [custom, setCustom] = useState(false);
  const [search, setSearch] = useState('');
  const deferred = useDeferredValue(search.trim());
  const found = useCatalogueSearch(custom ? '' : deferred);
  const [chosen, setChosen] = useState<CatalogueThread | null>(null);
  const [name, setName] = useState('');
  const [colour, setColour] = useState('#000000');
  const [quantity, setQuantity] = useState('1');
  const [location, setLocation] = useState('');
  const [problems, setProblems] = useState<FormProblems>(noProblems);
  const [done, setDone] = useState<string | null>(null);
  const create = useCreateThread(teamId);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setDone(null);
    const count = numberOf(quantity);
    if (count === NOT_A_NUMBER || count === null) {
      setProblems({ fields: { quantity: 'Give the number of spools or cones (0 is fine).' }, alert: null });
      return;
    }
    if (!custom && !chosen) {
      setProblems({ fields: { code: 'Choose a thread from the search results.' }, alert: null });
      return;
    }
    const input: ThreadInput =
      custom || !chosen
        ? { name: name.trim(), colour, quantity: count, location: location.trim() }
        : { line: chosen.line, code: chosen.code, quantity: count, location: location.trim() };
    setProblems(noProblems);
    try {
      const thread = await create.mutateAsync(input);
      setDone(`Added ${thread.code ? `${thread.code} ` : ''}${thread.name}.`);
      setChosen(null);
      setSearch('');
      setName('');
    } catch (error) {
      setProblems(problemsOf(error, ['line', 'code', 'name', 'colour', 'quantity', 'location'], 'The thread could not be added.'));
    }
  };

  // A cleared search shows nothing (not the last results kept while the next ones load).
  const results = deferred && !custom ? (found.data ?? []) : [];
  return (
    <section className="card profile-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Add thread</h2>
      <div className="chips" role="group" aria-label="Kind of thread">
        <label className="check">
          <input type="radio" name={`${id}-kind`} checked={!custom} onChange={() => setCustom(false)} /> From the catalogue
        </label>
        <label className="check">
          <input type="radio" name={`${id}-kind`} checked={custom} onChange={() => setCustom(true)} /> Custom thread
        </label>
      </div>
      <form onSubmit={submit} noValidate>
        {custom ? (
          <>
            <TextField id={`${id}-name`} label="Name" value={name} onChange={(e) => setName(e.target.value)} error={problems.fields.name} />
            <TextField
              id={`${id}-colour`}
              label="Colour"
              type="color"
              value={colour}
              onChange={(e) => setColour(e.target.value)}
              error={problems.fields.colour}
            />
          </>
        ) : (
          <>
            <TextField
              id={`${id}-search`}
              label="Search the catalogue"
              type="search"
              autoComplete="off"
              hint="A code or a name, e.g. 1800 or navy."
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              error={problems.fields.code ?? problems.fields.line}
            />
            {results.length > 0 ? (
              <ul className="thread-results" aria-label="Catalogue threads">
                {results.map((thread) => {
                  const selected = chosen?.line === thread.line && chosen.code === thread.code;
                  return (
                    <li key={`${thread.line}/${thread.code}`}>
                      <button
                        type="button"
                        className="thread-option"
                        aria-pressed={selected}
                        onClick={() => setChosen(thread)}
                      >
                        <Swatch hex={thread.hex} /> {thread.code} {thread.name} <span className="muted">{thread.line_name}</span>
                      </button>
                    </li>
                  );
                })}
              </ul>
            ) : deferred && found.isSuccess ? (
              <p className="muted">No catalogue thread matches “{deferred}”.</p>
            ) : null}
            {chosen ? (
              <p role="status">
                Chosen: <Swatch hex={chosen.hex} /> {chosen.code} {chosen.name} ({chosen.line_name})
              </p>
            ) : null}
          </>
        )}
        <TextField
          id={`${id}-quantity`}
          label="Quantity"
          inputMode="decimal"
          value={quantity}
          onChange={(e) => setQuantity(e.target.value)}
          error={problems.fields.quantity}
        />
        <TextField
          id={`${id}-location`}
          label="Location"
          value={location}
          onChange={(e) => setLocation(e.target.value)}
          error={problems.fields.location}
        />
        <button type="submit" className="button button--primary" disabled={create.isPending}>
          Add to inventory
        </button>
        <FormAlert message={problems.alert} />
        <FormStatus message={done} />
      </form>
    </section>
  );
}
