import { useId, useState } from 'react';
import { useWatch } from 'react-hook-form';

import { FormAlert, FormStatus } from '@/components/form';
import { ApiError } from '@/lib/api-client';
import { counted } from '@/lib/text';

import { useBulkAddThreads } from '../api/bulk-add-threads';
import { useCatalogueLines } from '../api/get-catalogue-lines';
import { NOT_A_NUMBER, numberOf, problemsOf } from '../errors';
import { useInventoryForm } from '../form';
import { LineOptions, SelectField, TextAreaField, TextField } from './Field';

interface AddManyFields {
  line: string;
  codes: string;
  quantity: string;
}

/**
 * Adds many codes of one line at once, e.g. pasted from a pattern's colour list. The line starts
 * at the team's preferred one (`preferredLine`, '' for none) until another is chosen.
 */
export function AddMany({ teamId, preferredLine = '' }: { teamId: string; preferredLine?: string }) {
  const id = useId();
  const lines = useCatalogueLines();
  const bulk = useBulkAddThreads(teamId);
  const { form, alert, done, setDone, show, onSubmit } = useInventoryForm<AddManyFields>({
    defaultValues: { line: '', codes: '', quantity: '1' },
  });
  const { register, control, formState, setValue } = form;
  const { errors } = formState;
  // '' until a line is chosen: then the preferred one. A controlled select, so it shows the line
  // even when the lines arrive after it is set.
  const line = useWatch({ control, name: 'line' }) || preferredLine;
  // After a refusal for unknown codes: the offer to add the others alone.
  const [unknownCodes, setUnknownCodes] = useState(false);

  const add = async ({ codes, quantity }: AddManyFields, skipUnknown: boolean) => {
    const count = numberOf(quantity);
    const fields: Record<string, string> = {};
    if (!line) fields.line = 'Choose the line the codes belong to.';
    if (codes.trim() === '') fields.codes = 'List one or more codes.';
    if (count === NOT_A_NUMBER || count === null) fields.quantity = 'Give the number of spools of each.';
    if (Object.keys(fields).length > 0 || count === NOT_A_NUMBER || count === null) {
      show({ fields, alert: null });
      return;
    }
    setUnknownCodes(false);
    try {
      const result = await bulk.mutateAsync({ line, codes: [codes], quantity: count, skip_unknown: skipUnknown });
      const owned = result.already_owned.length ? ` Already in the inventory: ${result.already_owned.join(', ')}.` : '';
      const left = result.unknown.length ? ` Left out, not in this line: ${result.unknown.join(', ')}.` : '';
      setDone(`Added ${counted(result.added.length, 'thread')}.${owned}${left}`);
      setValue('codes', '');
    } catch (error) {
      // Unknown codes come as codes[0], codes[1]...: shown with the codes box.
      const found = problemsOf(error, ['line', 'codes', 'quantity'], 'The threads could not be added.');
      const codeProblems = Object.entries(error instanceof ApiError ? (error.fields ?? {}) : {})
        .filter(([field]) => field.startsWith('codes['))
        .map(([, message]) => message);
      setUnknownCodes(codeProblems.length > 0 && !skipUnknown);
      show(
        codeProblems.length > 0
          ? { fields: { ...found.fields, codes: codeProblems.join(' ') }, alert: 'Some codes are not in this line; nothing was added.' }
          : found,
      );
    }
  };
  const submit = onSubmit((values) => add(values, false));

  return (
    <section className="card profile-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Add many</h2>
      <form onSubmit={submit} noValidate>
        <SelectField
          id={`${id}-line`}
          label="Line"
          error={errors.line?.message}
          value={line}
          onChange={(event) => setValue('line', event.target.value)}
        >
          <option value="">Choose a line</option>
          <LineOptions lines={lines.data} />
        </SelectField>
        <TextAreaField
          id={`${id}-codes`}
          label="Codes"
          hint="Separated by commas, spaces or new lines."
          rows={3}
          error={errors.codes?.message}
          {...register('codes')}
        />
        <TextField
          id={`${id}-quantity`}
          label="Spools of each"
          inputMode="decimal"
          error={errors.quantity?.message}
          {...register('quantity')}
        />
        <div className="actions">
          <button type="submit" className="button button--primary" disabled={bulk.isPending}>
            Add all
          </button>
          {unknownCodes ? (
            <button type="button" className="button" disabled={bulk.isPending} onClick={() => void add(form.getValues(), true)}>
              Add the others, leave those out
            </button>
          ) : null}
        </div>
        <FormAlert message={alert} />
        <FormStatus message={done} />
      </form>
    </section>
  );
}
