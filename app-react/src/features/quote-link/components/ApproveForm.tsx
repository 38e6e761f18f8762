import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';

import { FieldError, FormAlert, fieldProps } from '@/components/form';

import { type CustomerQuote, useApproveQuote } from '../api';
import { counted, formatMoney } from '../format';
import { answerFailure } from './answer-failure';

/** The limits the server holds the signature and the order number to (routes/quote_links.rs). */
const NAME_MAX = 200;
const PO_MAX = 100;
const FIELDS = ['name', 'po_number'] as const;

interface ApproveFields {
  /** The quantity chosen, as the radio's value. */
  quantity: string;
  name: string;
  po_number: string;
}

/** The approval: the quantity chosen among those offered, signed with the customer's typed name. */
export function ApproveForm({ token, quote, onAnswered }: { token: string; quote: CustomerQuote; onAnswered: () => void }) {
  const id = useId();
  const approve = useApproveQuote(token);
  const [failure, setFailure] = useState<string | null>(null);
  const [only] = quote.options.length === 1 ? quote.options : [];
  const { register, handleSubmit, formState, setError } = useForm<ApproveFields>({
    defaultValues: { quantity: only ? String(only.quantity) : '', name: '', po_number: '' },
  });
  const { errors } = formState;

  const submit = handleSubmit(async ({ quantity, name, po_number }) => {
    setFailure(null);
    try {
      await approve.mutateAsync({ revision: quote.revision, quantity: Number(quantity), name: name.trim(), po_number: po_number.trim() });
      onAnswered();
    } catch (error) {
      setFailure(answerFailure(error, FIELDS, setError));
    }
  });

  // A newer version read meanwhile may offer other quantities: the one chosen must still be there.
  const offered = (value: string) => quote.options.some((option) => String(option.quantity) === value) || 'Choose how many pieces.';
  const required = (value: string) => value.trim() !== '' || 'Type your name to sign the approval.';
  const money = (amount: string) => formatMoney(amount, quote.currency);
  return (
    <form className="quote-link-approve" onSubmit={submit} noValidate>
      <fieldset aria-describedby={errors.quantity ? `${id}-quantity-error` : undefined}>
        <legend>How many pieces?</legend>
        {quote.options.map((option) => (
          <label key={option.quantity} className="check quote-link-choice">
            <input type="radio" value={String(option.quantity)} {...register('quantity', { validate: offered })} />
            <span className="check__text">
              {counted(option.quantity, 'piece', 'pieces')}
              <span className="check__hint muted">{money(option.per_piece)} a piece</span>
            </span>
            <span className="check__meta quote-link-choice__total">Total {money(option.total)}</span>
          </label>
        ))}
        <FieldError id={`${id}-quantity`} error={errors.quantity} />
      </fieldset>
      <div className="field">
        <label htmlFor={`${id}-name`}>Your name</label>
        <input
          id={`${id}-name`}
          autoComplete="name"
          maxLength={NAME_MAX}
          {...fieldProps(`${id}-name`, errors.name, `${id}-name-hint`)}
          {...register('name', { validate: required })}
        />
        <p id={`${id}-name-hint`} className="muted quote-link-approve__hint">
          Typing your name signs the approval.
        </p>
        <FieldError id={`${id}-name`} error={errors.name} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-po`}>Order number (optional)</label>
        <input id={`${id}-po`} maxLength={PO_MAX} {...fieldProps(`${id}-po`, errors.po_number)} {...register('po_number')} />
        <FieldError id={`${id}-po`} error={errors.po_number} />
      </div>
      <button type="submit" className="button button--primary quote-link-approve__submit" disabled={formState.isSubmitting}>
        {formState.isSubmitting ? 'Approving…' : 'Approve quote'}
      </button>
      <FormAlert message={failure} />
    </form>
  );
}
