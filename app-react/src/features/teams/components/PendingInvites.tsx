import { useId } from 'react';

import { LoadingStatus } from '@/components/LoadingStatus';
import { notify } from '@/lib/toast';

import { useTeamInvites } from '../api/get-team-invites';
import { useRevokeInvite } from '../api/revoke-invite';
import { type Team, canManage, roleLabels } from '../types';
import { formatDate } from './dates';
import { messageOf } from './errors';

/** The team's pending invites, each with a way to withdraw it (admins and owners). */
export function PendingInvites({ team }: { team: Team }) {
  const id = useId();
  const invites = useTeamInvites(team.public_id, canManage(team.role));
  const revoke = useRevokeInvite();
  const pending = invites.data?.filter((invite) => invite.status === 'pending') ?? [];

  const onRevoke = async (invitePublicId: string, email: string) => {
    try {
      await revoke.mutateAsync(invitePublicId);
      notify.success(`The invite to ${email} was revoked.`);
    } catch (error) {
      notify.error(messageOf(error, 'Failed to revoke invite.'));
    }
  };

  return (
    <section className="card profile-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Pending invites</h2>
      <LoadingStatus query={invites}>Loading the invites…</LoadingStatus>
      {invites.isError && !invites.data ? <p role="alert">The invites could not be loaded.</p> : null}
      {invites.data && pending.length === 0 ? <p className="muted">No invites are waiting for an answer.</p> : null}
      {pending.length > 0 ? (
        <ul className="item-list">
          {pending.map((invite) => (
            <li key={invite.public_id} className="item-list__item">
              <div className="item-list__text">
                <strong>{invite.email}</strong>
                <span className="muted">
                  As {roleLabels[invite.role]} · sent {formatDate(invite.created_at)} · expires {formatDate(invite.expires_at)}
                </span>
              </div>
              <div className="actions item-list__actions">
                <button
                  type="button"
                  className="button"
                  disabled={revoke.isPending}
                  onClick={() => void onRevoke(invite.public_id, invite.email)}
                  aria-label={`Revoke the invite to ${invite.email}`}
                >
                  Revoke
                </button>
              </div>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
