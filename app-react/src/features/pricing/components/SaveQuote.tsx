// Saves the quote on screen: its inputs, the rates and design figures it used, and the result. The
// saved quote is a draft with a number; its page adds the customer and sends it.
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';

import { FieldError, FormAlert, fieldProps } from '@/components/form';
import { quotePagePath } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { isOffline, newWriteKey } from '@/lib/offline/writes';
import { notify } from '@/lib/toast';

import { useCreateQuote } from '../api/create-quote';
import type { QuoteDraft, SavedQuote } from '../types';

export function SaveQuote({
  teamId,
  draft,
  onSaved,
}: {
  teamId: string;
  /** The quote as it stands, without its name; null while the inputs give no price. */
  draft: Omit<QuoteDraft, 'name'> | null;
  onSaved?: (quote: SavedQuote) => void;
}) {
  const id = useId();
  const create = useCreateQuote();
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<{ id: string; number: string } | null>(null);
  const { register, handleSubmit, reset, formState } = useForm<{ name: string }>({ defaultValues: { name: '' } });

  const submit = handleSubmit(async ({ name }) => {
    setError(null);
    setSaved(null);
    if (!draft) {
      setError('Fix the inputs first: there is no price to save.');
      return;
    }
    const write = { teamId, draft: { ...draft, name: name.trim() }, writeKey: newWriteKey() };
    // Offline, the quote waits for the connection (docs/behaviour.md, "Offline").
    if (isOffline()) {
      create.mutate(write);
      notify.success(`Quote "${write.draft.name}" is kept on this device and saved when the connection returns.`);
      reset({ name: '' });
      return;
    }
    try {
      const saved = await create.mutateAsync(write);
      notify.success(`Quote "${saved.name}" saved.`);
      setSaved({ id: saved.id, number: saved.number });
      reset({ name: '' });
      onSaved?.(saved);
    } catch (failure) {
      // 422 quote_mismatch and validation failures carry a sentence for the person.
      setError(failure instanceof ApiError ? failure.message : 'The quote could not be saved.');
    }
  });

  return (
    <section className="card pricing-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Save quote</h2>
      <form onSubmit={submit} noValidate className="save-quote">
        <div className="field">
          <label htmlFor={`${id}-name`}>Name</label>
          <input
            id={`${id}-name`}
            type="text"
            autoComplete="off"
            placeholder="50 polos, left chest"
            {...fieldProps(`${id}-name`, formState.errors.name)}
            {...register('name', {
              validate: (value) => value.trim() !== '' || 'Give the quote a name.',
              maxLength: { value: 200, message: 'At most 200 characters.' },
            })}
          />
          <FieldError id={`${id}-name`} error={formState.errors.name} />
        </div>
        <div className="actions">
          <button type="submit" className="button button--primary" disabled={formState.isSubmitting}>
            Save quote
          </button>
        </div>
        <FormAlert message={error} />
        {saved ? (
          <p className="form-status" role="status">
            Saved as {saved.number}. <Link to={quotePagePath(saved.id)}>Open {saved.number}</Link> to add the customer and send it.
          </p>
        ) : null}
      </form>
    </section>
  );
}
