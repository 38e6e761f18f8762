import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';

import { FieldError, FormAlert, fieldProps } from '@/components/form';

import { type CustomerQuote, useDeclineQuote } from '../api';
import { answerFailure } from './answer-failure';

/** The longest reason the server takes (routes/quote_links.rs). */
const REASON_MAX = 2_000;
const FIELDS = ['reason'] as const;

/** Declining, with the reason the shop needs to help (required, as the server has it). */
export function DeclineForm({ token, quote, onAnswered }: { token: string; quote: CustomerQuote; onAnswered: () => void }) {
  const id = useId();
  const decline = useDeclineQuote(token);
  const [failure, setFailure] = useState<string | null>(null);
  const { register, handleSubmit, formState, setError } = useForm<{ reason: string }>({ defaultValues: { reason: '' } });
  const { errors } = formState;

  const submit = handleSubmit(async ({ reason }) => {
    setFailure(null);
    try {
      await decline.mutateAsync({ revision: quote.revision, reason: reason.trim() });
      onAnswered();
    } catch (error) {
      setFailure(answerFailure(error, FIELDS, setError));
    }
  });

  return (
    <form className="quote-link-decline" onSubmit={submit} noValidate>
      <div className="field">
        <label htmlFor={`${id}-reason`}>Reason for declining</label>
        <textarea
          id={`${id}-reason`}
          rows={4}
          maxLength={REASON_MAX}
          {...fieldProps(`${id}-reason`, errors.reason, `${id}-reason-hint`)}
          {...register('reason', { validate: (value) => value.trim() !== '' || 'Tell the shop why, so they can help.' })}
        />
        <p id={`${id}-reason-hint`} className="muted quote-link-approve__hint">
          The shop reads it, and may offer something else.
        </p>
        <FieldError id={`${id}-reason`} error={errors.reason} />
      </div>
      <button type="submit" className="button" disabled={formState.isSubmitting}>
        {formState.isSubmitting ? 'Declining…' : 'Decline quote'}
      </button>
      <FormAlert message={failure} />
    </form>
  );
}
