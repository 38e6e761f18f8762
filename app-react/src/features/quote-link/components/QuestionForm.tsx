import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';

import { FieldError, FormAlert, FormStatus, fieldProps } from '@/components/form';

import { type QuestionBody, useAskQuestion } from '../api';
import { answerFailure } from './answer-failure';

/** The limits the server holds a question to (routes/quote_links.rs). */
const NAME_MAX = 200;
const MESSAGE_MAX = 2_000;
const FIELDS = ['name', 'message'] as const;

/** A question for the shop, answered by e-mail; the name is optional (the shop knows whom it quoted). */
export function QuestionForm({ token }: { token: string }) {
  const id = useId();
  const ask = useAskQuestion(token);
  const [failure, setFailure] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const { register, handleSubmit, formState, setError, setValue } = useForm<QuestionBody>({ defaultValues: { name: '', message: '' } });
  const { errors } = formState;

  const submit = handleSubmit(async ({ name, message }) => {
    setFailure(null);
    setSent(false);
    try {
      await ask.mutateAsync({ name: name?.trim() ?? '', message: message.trim() });
      setSent(true);
      setValue('message', '');
    } catch (error) {
      setFailure(answerFailure(error, FIELDS, setError));
    }
  });

  return (
    <form className="quote-link-question" onSubmit={submit} noValidate>
      <div className="field">
        <label htmlFor={`${id}-name`}>Your name (optional)</label>
        <input
          id={`${id}-name`}
          autoComplete="name"
          maxLength={NAME_MAX}
          {...fieldProps(`${id}-name`, errors.name)}
          {...register('name')}
        />
        <FieldError id={`${id}-name`} error={errors.name} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-message`}>Your question</label>
        <textarea
          id={`${id}-message`}
          rows={4}
          maxLength={MESSAGE_MAX}
          {...fieldProps(`${id}-message`, errors.message)}
          {...register('message', { validate: (value) => value.trim() !== '' || 'Write your question.' })}
        />
        <FieldError id={`${id}-message`} error={errors.message} />
      </div>
      <button type="submit" className="button" disabled={formState.isSubmitting}>
        {formState.isSubmitting ? 'Sending…' : 'Send question'}
      </button>
      <FormAlert message={failure} />
      <FormStatus message={sent ? 'Sent: the shop will answer by e-mail.' : null} />
    </form>
  );
}
