import { useId } from 'react';
import { useForm } from 'react-hook-form';

import { FieldError, fieldProps } from '@/components/form';
import { ApiError } from '@/lib/api-client';
import { notify } from '@/lib/toast';

import { useCreateInvite } from '../api/create-invite';
import { INVITE_SENT, inviteSendError } from '../messages';
import { type Role, type Team, grantableRoles, roleLabels } from '../types';
import { RoleHelp } from './RoleHelp';

interface InviteFields {
  email: string;
  role: Role;
}

/** Invites someone by e-mail with a role (admins and owners); the server e-mails the link. */
export function InviteForm({ team }: { team: Team }) {
  const id = useId();
  const invite = useCreateInvite();
  const { register, handleSubmit, formState, reset, setError } = useForm<InviteFields>({
    defaultValues: { email: '', role: 'member' },
  });
  const { errors } = formState;

  const submit = handleSubmit(async ({ email, role }) => {
    try {
      await invite.mutateAsync({ publicId: team.public_id, email: email.trim(), role });
      notify.success(INVITE_SENT);
      reset();
    } catch (error) {
      // The toast of docs/behaviour.md, "Toasts and messages"; a field the server named also shows
      // its message.
      notify.error(inviteSendError(error));
      const fields = error instanceof ApiError ? error.fields : undefined;
      if (fields?.email) setError('email', { message: fields.email });
      if (fields?.role) setError('role', { message: fields.role });
    }
  });

  return (
    <section className="card profile-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Invite someone</h2>
      <form onSubmit={submit} noValidate>
        <div className="field-row">
          <div className="field">
            <label htmlFor={`${id}-email`}>E-mail address</label>
            <input
              id={`${id}-email`}
              type="email"
              autoComplete="off"
              {...fieldProps(`${id}-email`, errors.email)}
              {...register('email', {
                validate: (value) => /^[^\s@]+@[^\s@]+$/.test(value.trim()) || 'Enter an e-mail address.',
              })}
            />
            <FieldError id={`${id}-email`} error={errors.email} />
          </div>
          <div className="field field--role">
            <label htmlFor={`${id}-role`}>Role</label>
            <select id={`${id}-role`} {...fieldProps(`${id}-role`, errors.role, `${id}-roles`)} {...register('role')}>
              {grantableRoles(team.role).map((role) => (
                <option key={role} value={role}>
                  {roleLabels[role]}
                </option>
              ))}
            </select>
            <FieldError id={`${id}-role`} error={errors.role} />
          </div>
        </div>
        <RoleHelp id={`${id}-roles`} roles={grantableRoles(team.role)} />
        <button type="submit" className="button button--primary" disabled={formState.isSubmitting}>
          Send invite
        </button>
      </form>
    </section>
  );
}
