// The quote's document as the shop writes it: what it is for, the customer, the quantities offered,
// the shop's own lines, tax, validity and notes. Saving makes a new version; a quote the customer
// has is updated at their link (an answer to the old version is refused).
import { useId, useState } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';

import { FieldError, FormAlert, FormStatus, fieldProps } from '@/components/form';
import { ApiError } from '@/lib/api-client';

import { type Quote, type QuoteChanges, useChangeQuote } from '../api';

interface LineValues {
  description: string;
  unit_price: string;
  /** Empty: one a piece, at the quantity the customer chooses. */
  quantity: string;
}

interface EditorValues {
  name: string;
  customerName: string;
  customerCompany: string;
  customerEmail: string;
  /** "24, 48, 96". */
  quantities: string;
  lines: LineValues[];
  tax: string;
  validUntil: string;
  notes: string;
}

function valuesOf(quote: Quote): EditorValues {
  return {
    name: quote.name,
    customerName: quote.customer.name,
    customerCompany: quote.customer.company,
    customerEmail: quote.customer.email,
    quantities: quote.terms.quantities.join(', '),
    lines: (quote.terms.lines ?? []).map((line) => ({
      description: line.description,
      unit_price: line.unit_price,
      quantity: line.quantity == null ? '' : String(line.quantity),
    })),
    tax: quote.terms.tax_percent,
    validUntil: quote.valid_until,
    notes: quote.terms.notes ?? '',
  };
}

/** The quantities typed, or `null` when one is not a whole number. */
function quantitiesOf(text: string): number[] | null {
  const parts = text.split(/[\s,;]+/).filter(Boolean);
  const numbers = parts.map(Number);
  return numbers.every((n) => Number.isInteger(n) && n > 0) ? numbers : null;
}

function changesOf(values: EditorValues): QuoteChanges {
  return {
    name: values.name,
    customer: { name: values.customerName, company: values.customerCompany, email: values.customerEmail },
    terms: {
      quantities: quantitiesOf(values.quantities) ?? [],
      lines: values.lines.map((line) => ({
        description: line.description,
        unit_price: line.unit_price.trim(),
        quantity: line.quantity.trim() === '' ? null : Number(line.quantity),
      })),
      tax_percent: values.tax.trim(),
      notes: values.notes,
    },
    valid_until: values.validUntil,
  };
}

/** The server's field names (`terms.lines[0].unit_price`) as the form's (`lines.0.unit_price`). */
const FIELD_NAMES: Record<string, string> = {
  name: 'name',
  'customer.name': 'customerName',
  'customer.company': 'customerCompany',
  'customer.email': 'customerEmail',
  'terms.quantities': 'quantities',
  'terms.tax_percent': 'tax',
  'terms.notes': 'notes',
  valid_until: 'validUntil',
};

function formField(field: string): string {
  const line = /^terms\.lines\[(\d+)\]\.(\w+)$/.exec(field);
  if (line) return `lines.${line[1]}.${line[2]}`;
  if (field.startsWith('terms.quantities')) return 'quantities';
  return FIELD_NAMES[field] ?? 'root';
}

export function QuoteEditor({ teamId, quote }: { teamId: string; quote: Quote }) {
  const id = useId();
  const change = useChangeQuote(teamId, quote);
  const [saved, setSaved] = useState<string | null>(null);
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isDirty },
    reset,
  } = useForm<EditorValues>({ values: valuesOf(quote) });
  const lines = useFieldArray({ control, name: 'lines' });

  const submit = handleSubmit(async (values) => {
    setSaved(null);
    if (!quantitiesOf(values.quantities)) {
      setError('quantities', { message: 'Give whole numbers of pieces, separated by commas: 24, 48, 96.' });
      return;
    }
    try {
      const changed = await change.mutateAsync(changesOf(values));
      reset(valuesOf(changed));
      setSaved(
        changed.status === 'sent'
          ? `Saved as version ${changed.revision}: the customer's link shows it now.`
          : `Saved as version ${changed.revision}.`,
      );
    } catch (failure) {
      if (failure instanceof ApiError && failure.fields) {
        for (const [field, message] of Object.entries(failure.fields)) {
          setError(formField(field) as keyof EditorValues, { message });
        }
      } else {
        setError('root', {
          message: failure instanceof ApiError ? failure.message : 'The quote could not be saved. Check the connection and try again.',
        });
      }
    }
  });

  const field = (name: keyof EditorValues) => `${id}-${name}`;
  return (
    <form className="card quote-editor" onSubmit={(event) => void submit(event)} aria-labelledby={`${id}-title`} noValidate>
      <h2 id={`${id}-title`}>The quote</h2>
      <div className="field">
        <label htmlFor={field('name')}>What it is for</label>
        <input
          id={field('name')}
          {...register('name', { required: 'Name the quote, e.g. the customer and the job.' })}
          {...fieldProps(field('name'), errors.name)}
        />
        <FieldError id={field('name')} error={errors.name} />
      </div>
      <fieldset className="quote-editor__group">
        <legend>Customer</legend>
        <div className="field">
          <label htmlFor={field('customerName')}>Name</label>
          <input
            id={field('customerName')}
            autoComplete="off"
            {...register('customerName')}
            {...fieldProps(field('customerName'), errors.customerName)}
          />
          <FieldError id={field('customerName')} error={errors.customerName} />
        </div>
        <div className="field">
          <label htmlFor={field('customerCompany')}>Company</label>
          <input
            id={field('customerCompany')}
            autoComplete="off"
            {...register('customerCompany')}
            {...fieldProps(field('customerCompany'), errors.customerCompany)}
          />
          <FieldError id={field('customerCompany')} error={errors.customerCompany} />
        </div>
        <div className="field">
          <label htmlFor={field('customerEmail')}>E-mail</label>
          <input
            id={field('customerEmail')}
            type="email"
            autoComplete="off"
            {...register('customerEmail')}
            {...fieldProps(field('customerEmail'), errors.customerEmail)}
          />
          <FieldError id={field('customerEmail')} error={errors.customerEmail} />
        </div>
      </fieldset>
      <div className="field">
        <label htmlFor={field('quantities')}>Quantities offered</label>
        <p id={`${field('quantities')}-hint`} className="field__hint">
          The customer chooses one. Separate them with commas: 24, 48, 96.
        </p>
        <input
          id={field('quantities')}
          inputMode="numeric"
          {...register('quantities', { required: 'Offer at least one quantity.' })}
          {...fieldProps(field('quantities'), errors.quantities, `${field('quantities')}-hint`)}
        />
        <FieldError id={field('quantities')} error={errors.quantities} />
      </div>
      <fieldset className="quote-editor__group">
        <legend>Your own lines</legend>
        <p className="field__hint">Set-up, digitising, garments. Leave the count empty for one a piece.</p>
        {lines.fields.map((line, index) => {
          const lineId = `${id}-line-${index}`;
          const lineErrors = errors.lines?.[index];
          return (
            <div key={line.id} className="quote-line">
              <div className="field quote-line__description">
                <label htmlFor={`${lineId}-description`}>Line {index + 1}</label>
                <input
                  id={`${lineId}-description`}
                  {...register(`lines.${index}.description`, { required: 'Say what the line is for.' })}
                  {...fieldProps(`${lineId}-description`, lineErrors?.description)}
                />
                <FieldError id={`${lineId}-description`} error={lineErrors?.description} />
              </div>
              <div className="field">
                <label htmlFor={`${lineId}-price`}>Unit price</label>
                <input
                  id={`${lineId}-price`}
                  inputMode="decimal"
                  {...register(`lines.${index}.unit_price`, { required: 'Give a price.' })}
                  {...fieldProps(`${lineId}-price`, lineErrors?.unit_price)}
                />
                <FieldError id={`${lineId}-price`} error={lineErrors?.unit_price} />
              </div>
              <div className="field">
                <label htmlFor={`${lineId}-count`}>Count</label>
                <input
                  id={`${lineId}-count`}
                  inputMode="numeric"
                  placeholder="a piece"
                  {...register(`lines.${index}.quantity`)}
                  {...fieldProps(`${lineId}-count`, lineErrors?.quantity)}
                />
                <FieldError id={`${lineId}-count`} error={lineErrors?.quantity} />
              </div>
              <button type="button" className="button" onClick={() => lines.remove(index)} aria-label={`Remove line ${index + 1}`}>
                Remove
              </button>
            </div>
          );
        })}
        <button type="button" className="button" onClick={() => lines.append({ description: '', unit_price: '', quantity: '' })}>
          Add a line
        </button>
      </fieldset>
      <div className="quote-editor__row">
        <div className="field">
          <label htmlFor={field('tax')}>Tax (%)</label>
          <input
            id={field('tax')}
            inputMode="decimal"
            {...register('tax', { required: 'Give the tax rate, 0 for none.' })}
            {...fieldProps(field('tax'), errors.tax)}
          />
          <FieldError id={field('tax')} error={errors.tax} />
        </div>
        <div className="field">
          <label htmlFor={field('validUntil')}>Valid until</label>
          <input
            id={field('validUntil')}
            type="date"
            {...register('validUntil', { required: 'Give the last day it may be approved.' })}
            {...fieldProps(field('validUntil'), errors.validUntil)}
          />
          <FieldError id={field('validUntil')} error={errors.validUntil} />
        </div>
      </div>
      <div className="field">
        <label htmlFor={field('notes')}>Notes for the customer</label>
        <textarea id={field('notes')} rows={4} {...register('notes')} {...fieldProps(field('notes'), errors.notes)} />
        <FieldError id={field('notes')} error={errors.notes} />
      </div>
      <div className="actions">
        <button type="submit" className="button button--primary" disabled={change.isPending || !isDirty}>
          {change.isPending ? 'Saving…' : 'Save the quote'}
        </button>
      </div>
      <FormAlert message={errors.root?.message} />
      <FormStatus message={saved} />
    </form>
  );
}
