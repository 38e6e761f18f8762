import { notify } from '@/lib/toast';

import { useAcceptInvite } from '../api/accept-invite';
import { useMyInvites } from '../api/get-my-invites';
import { useRevokeInvite } from '../api/revoke-invite';
import { INVITE_ACCEPTED, inviteAcceptError } from '../messages';
import { useSelectTeam } from '../select-team';
import { type Invite, roleLabels } from '../types';
import { formatDate } from './dates';

/**
 * The profile's My Invites tab: invites addressed to the person, to accept (which also makes the
 * team current, since people accept to work in it) or decline.
 */
export function MyInvites() {
  const invites = useMyInvites();

  if (invites.isPending) return <p role="status">Loading your invites…</p>;
  if (invites.isError && !invites.data) return <p role="alert">Your invites could not be loaded. Reload the page to try again.</p>;
  const pending = invites.data.filter((invite) => invite.status === 'pending');
  return (
    <section className="card profile-section" aria-labelledby="my-invites-title">
      <h2 id="my-invites-title">Invites to join a team</h2>
      {pending.length === 0 ? (
        <p className="muted">You have no pending invites.</p>
      ) : (
        <ul className="item-list">
          {pending.map((invite) => (
            <MyInvite key={invite.public_id} invite={invite} />
          ))}
        </ul>
      )}
    </section>
  );
}

function MyInvite({ invite }: { invite: Invite }) {
  const accept = useAcceptInvite();
  const decline = useRevokeInvite();
  const selectTeam = useSelectTeam();
  const busy = accept.isPending || decline.isPending;

  const onAccept = async () => {
    try {
      const { team } = await accept.mutateAsync(invite.public_id);
      notify.success(INVITE_ACCEPTED);
      await selectTeam(team.public_id).catch((error: unknown) => console.warn('Could not select the team:', error));
    } catch (error) {
      notify.error(inviteAcceptError(error));
    }
  };

  const onDecline = async () => {
    try {
      await decline.mutateAsync(invite.public_id);
      notify.info('Invite declined.');
    } catch (error) {
      notify.error(error instanceof Error && error.message ? error.message : 'Failed to decline invite.');
    }
  };

  const titleId = `invite-${invite.public_id}`;
  return (
    <li className="item-list__item" aria-labelledby={titleId}>
      <div className="item-list__text">
        <strong id={titleId}>{invite.team_name}</strong>
        <span className="muted">
          As {roleLabels[invite.role]}
          {invite.invited_by_email ? `, invited by ${invite.invited_by_email}` : ''} · expires {formatDate(invite.expires_at)}
        </span>
      </div>
      <div className="actions item-list__actions">
        <button
          type="button"
          className="button button--primary"
          onClick={() => void onAccept()}
          disabled={busy}
          aria-label={`Accept the invite to ${invite.team_name}`}
        >
          Accept
        </button>
        <button
          type="button"
          className="button"
          onClick={() => void onDecline()}
          disabled={busy}
          aria-label={`Decline the invite to ${invite.team_name}`}
        >
          Decline
        </button>
      </div>
    </li>
  );
}
