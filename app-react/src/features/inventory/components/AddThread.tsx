import { useDeferredValue, useId, useState } from 'react';
import { useWatch } from 'react-hook-form';

import { FormAlert, FormStatus } from '@/components/form';
import { sentence } from '@/lib/text';

import { useCreateThread } from '../api/create-thread';
import { useCatalogueLines } from '../api/get-catalogue-lines';
import { useCatalogueSearch } from '../api/search-catalogue';
import { NOT_A_NUMBER, type FormProblems, numberOf, problemsOf } from '../errors';
import { useInventoryForm } from '../form';
import type { CatalogueThread, ThreadInput } from '../types';
import { LineOptions, SelectField, Swatch, TextField } from './Field';

interface AddThreadFields {
  custom: boolean;
  /** What is typed to find a catalogue thread; not sent. */
  search: string;
  /** The catalogue thread picked from the results. */
  chosen: CatalogueThread | null;
  name: string;
  colour: string;
  quantity: string;
  location: string;
}

/** A catalogue thread's problems (its line or code) belong to the search that chose it. */
function onSearch({ fields: { line, code, ...fields }, alert }: FormProblems): FormProblems {
  const message = code ?? line;
  return { fields: message ? { ...fields, search: message } : fields, alert };
}

/**
 * Adds one thread: found in the catalogue by code or name (each with its swatch), or a custom
 * one with a name and a colour; then how many. The search looks in the team's preferred line
 * (`preferredLine`, '' for none) until another line, or all, is chosen.
 */
export function AddThread({ teamId, preferredLine = '' }: { teamId: string; preferredLine?: string }) {
  const id = useId();
  const lines = useCatalogueLines();
  // null until the person chooses: then the preferred line ('' is every line).
  const [chosenLine, setChosenLine] = useState<string | null>(null);
  const searchLine = chosenLine ?? preferredLine;
  const create = useCreateThread(teamId);
  const { form, alert, done, setDone, show, onSubmit } = useInventoryForm<AddThreadFields>({
    defaultValues: { custom: false, search: '', chosen: null, name: '', colour: '#000000', quantity: '1', location: '' },
  });
  const { register, control, setValue, formState } = form;
  const { errors } = formState;
  const [custom, search, chosen] = useWatch({ control, name: ['custom', 'search', 'chosen'] });
  const deferred = useDeferredValue(search.trim());
  const found = useCatalogueSearch(custom ? '' : deferred, searchLine);

  const submit = onSubmit(async (values) => {
    const count = numberOf(values.quantity);
    if (count === NOT_A_NUMBER || count === null) {
      show({ fields: { quantity: 'Give the number of spools or cones (0 is fine).' }, alert: null });
      return;
    }
    if (!values.custom && !values.chosen) {
      show(onSearch({ fields: { code: 'Choose a thread from the search results.' }, alert: null }));
      return;
    }
    const location = values.location.trim();
    const input: ThreadInput =
      values.custom || !values.chosen
        ? { name: values.name.trim(), colour: values.colour, quantity: count, location }
        : { line: values.chosen.line, code: values.chosen.code, quantity: count, location };
    try {
      const thread = await create.mutateAsync(input);
      setDone(sentence(`Added ${thread.code ? `${thread.code} ` : ''}${thread.name}`));
      // The quantity, location and colour stay for the next one, often alike.
      setValue('chosen', null);
      setValue('search', '');
      setValue('name', '');
    } catch (error) {
      show(onSearch(problemsOf(error, ['line', 'code', 'name', 'colour', 'quantity', 'location'], 'The thread could not be added.')));
    }
  });

  // A cleared search shows nothing (not the last results kept while the next ones load).
  const results = deferred && !custom ? (found.data ?? []) : [];
  return (
    <section className="card profile-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Add thread</h2>
      <div className="chips" role="group" aria-label="Kind of thread">
        <label className="check">
          <input type="radio" name={`${id}-kind`} checked={!custom} onChange={() => setValue('custom', false)} /> From the catalogue
        </label>
        <label className="check">
          <input type="radio" name={`${id}-kind`} checked={custom} onChange={() => setValue('custom', true)} /> Custom thread
        </label>
      </div>
      <form onSubmit={submit} noValidate>
        {custom ? (
          <>
            <TextField id={`${id}-name`} label="Name" error={errors.name?.message} {...register('name')} />
            <TextField id={`${id}-colour`} label="Colour" type="color" error={errors.colour?.message} {...register('colour')} />
          </>
        ) : (
          <>
            <SelectField id={`${id}-in`} label="Search in" value={searchLine} onChange={(event) => setChosenLine(event.target.value)}>
              <option value="">All lines</option>
              <LineOptions lines={lines.data} />
            </SelectField>
            <TextField
              id={`${id}-search`}
              label="Search the catalogue"
              type="search"
              autoComplete="off"
              hint="A code or a name, e.g. 1800 or navy."
              error={errors.search?.message}
              {...register('search')}
            />
            {results.length > 0 ? (
              <ul className="thread-results" aria-label="Catalogue threads">
                {results.map((thread) => {
                  const selected = chosen?.line === thread.line && chosen.code === thread.code;
                  return (
                    <li key={`${thread.line}/${thread.code}`}>
                      <button type="button" className="thread-option" aria-pressed={selected} onClick={() => setValue('chosen', thread)}>
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
        <TextField id={`${id}-quantity`} label="Quantity" inputMode="decimal" error={errors.quantity?.message} {...register('quantity')} />
        <TextField id={`${id}-location`} label="Location" error={errors.location?.message} {...register('location')} />
        <button type="submit" className="button button--primary" disabled={create.isPending}>
          Add to inventory
        </button>
        <FormAlert message={alert} />
        <FormStatus message={done} />
      </form>
    </section>
  );
}
