import { useId } from 'react';
import { useForm } from 'react-hook-form';

import { pageTitle } from '@/config/paths';
import { notify } from '@/lib/toast';

import { useAcceptInvite } from './api/accept-invite';
import { useAcceptInviteByToken } from './api/accept-invite-by-token';
import { INVITE_ACCEPTED, inviteAcceptError } from './messages';

/**
 * `/test/invites` (a test page): accepts an invite by its e-mailed token or by its public id, with
 * the same toasts as the real screens.
 */
export function TestInvitesPage() {
  const byToken = useAcceptInviteByToken();
  const byId = useAcceptInvite();
  return (
    <div className="test-invites">
      <title>{pageTitle('Test invites')}</title>
      <h1>Test invites</h1>
      <p className="lead">Accept an invite by the token from its e-mail, or by its public id.</p>
      <AcceptForm label="Invite token" button="Accept by token" accept={byToken.mutateAsync} />
      <AcceptForm label="Invite public id" button="Accept by public id" accept={byId.mutateAsync} />
    </div>
  );
}

function AcceptForm({ label, button, accept }: { label: string; button: string; accept: (value: string) => Promise<unknown> }) {
  const id = useId();
  const { register, handleSubmit, formState, reset } = useForm<{ value: string }>();
  const submit = handleSubmit(async ({ value }) => {
    try {
      await accept(value.trim());
      notify.success(INVITE_ACCEPTED);
      reset();
    } catch (error) {
      notify.error(inviteAcceptError(error));
    }
  });
  return (
    <form className="card profile-section" onSubmit={submit} noValidate>
      <div className="field">
        <label htmlFor={id}>{label}</label>
        <input id={id} autoComplete="off" {...register('value', { required: true })} />
      </div>
      <button type="submit" className="button button--primary" disabled={formState.isSubmitting}>
        {button}
      </button>
    </form>
  );
}
