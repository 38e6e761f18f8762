import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';

import { FieldError, FormAlert, FormStatus, fieldProps } from '@/components/form';
import { ApiError } from '@/lib/api-client';

import { type ContactMessage, useContactInfo, useSendContact } from '../api/contact';

/** The limits the server holds the message to (crates/core/src/contact.rs). */
const SUBJECT_MAX = 150;
const MESSAGE_MAX = 5_000;
const FIELDS = ['name', 'email', 'subject', 'message'] as const;

interface ContactFormProps {
  /** The signed-in person's name and address, filled in (both can be changed). */
  name: string;
  email: string;
}

/**
 * A message to the people who run this Bobbin server. Without a contact address on the server,
 * the page says how else to reach them instead of offering a form that cannot be sent.
 */
export function ContactForm({ name, email }: ContactFormProps) {
  const id = useId();
  const info = useContactInfo();
  const send = useSendContact();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const { register, handleSubmit, formState, setValue, setError } = useForm<ContactMessage>({
    // The profile may arrive after the first render: filled in then, unless already typed over.
    values: { name, email, subject: '', message: '' },
    resetOptions: { keepDirtyValues: true },
  });
  const { errors } = formState;

  if (info.isPending) return <p role="status">Loading…</p>;
  if (info.isError)
    return <FormAlert message={`The contact form could not be loaded: ${info.error.message} Reload the page to try again.`} />;
  if (!info.data.available) {
    return (
      <div className="card">
        <p>
          This Bobbin server has no contact address set up, so messages cannot be sent from here. Please ask the person who runs Bobbin for
          your shop or team (whoever gave you its address) directly.
        </p>
        <p className="muted">
          If you run this server: set <code>BOBBIN_CONTACT_EMAIL</code> (or <code>--contact-email</code>) to the address that should receive
          these messages, and restart it.
        </p>
      </div>
    );
  }

  const submit = handleSubmit(async (message) => {
    setFailure(null);
    setSentTo(null);
    try {
      await send.mutateAsync(message);
      setSentTo(message.email.trim());
      setValue('subject', '');
      setValue('message', '');
    } catch (error) {
      if (error instanceof ApiError && error.fields) {
        for (const field of FIELDS) {
          const fieldMessage = error.fields[field];
          if (fieldMessage) setError(field, { message: fieldMessage });
        }
      }
      setFailure(error instanceof Error && error.message ? error.message : 'Your message could not be sent.');
    }
  });

  const required = (what: string) => (value: string) => value.trim() !== '' || what;
  return (
    <form className="card contact-form" onSubmit={submit} noValidate>
      <div className="field">
        <label htmlFor={`${id}-name`}>Your name</label>
        <input
          id={`${id}-name`}
          autoComplete="name"
          {...fieldProps(`${id}-name`, errors.name)}
          {...register('name', { validate: required('Please give your name.') })}
        />
        <FieldError id={`${id}-name`} error={errors.name} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-email`}>Your e-mail address</label>
        <input
          id={`${id}-email`}
          type="email"
          autoComplete="email"
          {...fieldProps(`${id}-email`, errors.email, `${id}-email-hint`)}
          {...register('email', { validate: required('Please give an e-mail address to answer.') })}
        />
        <p id={`${id}-email-hint`} className="muted">
          The answer goes here.
        </p>
        <FieldError id={`${id}-email`} error={errors.email} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-subject`}>Subject</label>
        <input
          id={`${id}-subject`}
          maxLength={SUBJECT_MAX}
          {...fieldProps(`${id}-subject`, errors.subject)}
          {...register('subject', { validate: required('Please give a subject.') })}
        />
        <FieldError id={`${id}-subject`} error={errors.subject} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-message`}>Message</label>
        <textarea
          id={`${id}-message`}
          rows={8}
          maxLength={MESSAGE_MAX}
          {...fieldProps(`${id}-message`, errors.message)}
          {...register('message', { validate: required('Please write a message.') })}
        />
        <FieldError id={`${id}-message`} error={errors.message} />
      </div>
      <button type="submit" className="button button--primary" disabled={formState.isSubmitting}>
        {formState.isSubmitting ? 'Sending…' : 'Send message'}
      </button>
      <FormAlert message={failure} />
      <FormStatus message={sentTo ? `Thank you: your message is on its way. The answer will come to ${sentTo}.` : null} />
    </form>
  );
}
