import { useId, useState } from 'react';

import { FormAlert, FormStatus } from '@/components/form';
import { ApiError } from '@/lib/api-client';

import { useBulkAddThreads } from '../api/bulk-add-threads';
import { useCatalogueLines } from '../api/get-catalogue-lines';
import { NOT_A_NUMBER, type FormProblems, noProblems, numberOf, problemsOf } from '../errors';
import { SelectField, TextAreaField, TextField } from './Field';

/** Adds many codes of one line at once, e.g. pasted from a pattern's colour list. */
export function AddMany({ teamId }: { teamId: string }) {
  const id = useId();
  const lines = useCatalogueLines();
  const [line, setLine] = useState('');
  const [codes, setCodes] = useState('');
  const [quantity, setQuantity] = useState('1');
  const [problems, setProblems] = useState<FormProblems>(noProblems);
  const [done, setDone] = useState<string | null>(null);
  const bulk = useBulkAddThreads(teamId);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setDone(null);
    const count = numberOf(quantity);
    const fields: Record<string, string> = {};
    if (!line) fields.line = 'Choose the line the codes belong to.';
    if (codes.trim() === '') fields.codes = 'List one or more codes.';
    if (count === NOT_A_NUMBER || count === null) fields.quantity = 'Give the number of spools of each.';
    if (Object.keys(fields).length > 0 || count === NOT_A_NUMBER || count === null) {
      setProblems({ fields, alert: null });
      return;
    }
    setProblems(noProblems);
    try {
      const result = await bulk.mutateAsync({ line, codes: [codes], quantity: count });
      const owned = result.already_owned.length ? ` Already in the inventory: ${result.already_owned.join(', ')}.` : '';
      setDone(`Added ${result.added.length} thread(s).${owned}`);
      setCodes('');
    } catch (error) {
      // Unknown codes come as codes[0], codes[1]...: shown with the codes box.
      const found = problemsOf(error, ['line', 'codes', 'quantity'], 'The threads could not be added.');
      const codeProblems = Object.entries(error instanceof ApiError ? (error.fields ?? {}) : {})
        .filter(([field]) => field.startsWith('codes['))
        .map(([, message]) => message);
      setProblems(
        codeProblems.length > 0
          ? { fields: { ...found.fields, codes: codeProblems.join(' ') }, alert: 'Some codes are not in this line; nothing was added.' }
          : found,
      );
    }
  };

  return (
    <section className="card profile-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Add many</h2>
      <form onSubmit={submit} noValidate>
        <SelectField id={`${id}-line`} label="Line" value={line} onChange={(e) => setLine(e.target.value)} error={problems.fields.line}>
          <option value="">Choose a line</option>
          {(lines.data ?? []).map((entry) => (
            <option key={entry.id} value={entry.id}>
              {entry.display_name}
            </option>
          ))}
        </SelectField>
        <TextAreaField
          id={`${id}-codes`}
          label="Codes"
          hint="Separated by commas, spaces or new lines."
          rows={3}
          value={codes}
          onChange={(e) => setCodes(e.target.value)}
          error={problems.fields.codes}
        />
        <TextField
          id={`${id}-quantity`}
          label="Spools of each"
          inputMode="decimal"
          value={quantity}
          onChange={(e) => setQuantity(e.target.value)}
          error={problems.fields.quantity}
        />
        <button type="submit" className="button button--primary" disabled={bulk.isPending}>
          Add all
        </button>
        <FormAlert message={problems.alert} />
        <FormStatus message={done} />
      </form>
    </section>
  );
}
