import { useId, useState } from 'react';

import { LoadingStatus } from '@/components/LoadingStatus';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { FormAlert } from '@/components/form';
import { useAuthState } from '@/lib/auth';
import { notify } from '@/lib/toast';
import { sentence } from '@/lib/text';

import { useMembers } from '../api/get-members';
import { useRemoveMember } from '../api/remove-member';
import { useSaveMember } from '../api/update-member';
import { type Member, type Role, type Team, canManage, grantableRoles, isOwner, roleLabels } from '../types';
import { RoleHelp } from './RoleHelp';
import { formatDate } from './dates';
import { messageOf } from './errors';

/**
 * The team's members and their roles. Admins and owners change roles and remove members; only
 * owners touch an owner or grant the owner role. Anyone may leave (except the last owner, which
 * the server refuses with its reason).
 */
export function MemberList({ team }: { team: Team }) {
  const id = useId();
  const auth = useAuthState();
  const me = auth.status === 'signed-in' ? auth.user.id : '';
  const members = useMembers(team.public_id);
  const save = useSaveMember();
  const remove = useRemoveMember();
  const [error, setError] = useState<string | null>(null);

  const changeRole = async (member: Member, role: Role) => {
    setError(null);
    try {
      await save.mutateAsync({ publicId: team.public_id, userId: member.userId, role });
      notify.success(`${member.full_name || member.email} is now ${roleLabels[role].toLowerCase()}.`);
    } catch (failure) {
      setError(messageOf(failure, 'The role could not be changed.'));
    }
  };

  const removeMember = async (member: Member) => {
    setError(null);
    try {
      await remove.mutateAsync({ publicId: team.public_id, userId: member.userId });
      notify.success(`${member.full_name || member.email} was removed from the team.`);
    } catch (failure) {
      setError(messageOf(failure, 'The member could not be removed.'));
    }
  };

  const mayChange = (member: Member) => canManage(team.role) && (member.role !== 'owner' || isOwner(team.role));
  const roles = grantableRoles(team.role);

  return (
    <section className="card profile-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Members</h2>
      <LoadingStatus query={members}>Loading the members…</LoadingStatus>
      {members.isError && !members.data ? <p role="alert">The members could not be loaded.</p> : null}
      <FormAlert message={error} />
      {canManage(team.role) && members.data ? <RoleHelp id={`${id}-roles`} roles={roles} /> : null}
      {members.data ? (
        <ul className="item-list">
          {members.data.map((member) => (
            <li key={member.userId} className="item-list__item">
              <div className="item-list__text">
                <strong>
                  {member.full_name || member.email}
                  {member.userId === me ? ' (you)' : ''}
                </strong>
                <span className="muted">
                  {member.full_name ? `${member.email} · ` : ''}joined {formatDate(member.joined_at)}
                </span>
              </div>
              <div className="actions item-list__actions">
                {mayChange(member) ? (
                  <>
                    <label className="visually-hidden" htmlFor={`${id}-role-${member.userId}`}>
                      Role of {member.full_name || member.email}
                    </label>
                    <select
                      id={`${id}-role-${member.userId}`}
                      className="item-list__select"
                      aria-describedby={`${id}-roles`}
                      value={member.role}
                      disabled={save.isPending}
                      onChange={(event) => void changeRole(member, event.target.value as Role)}
                    >
                      {/* An owner's own current role stays listed even where it may not be granted. */}
                      {(roles.includes(member.role) ? roles : [member.role, ...roles]).map((role) => (
                        <option key={role} value={role}>
                          {roleLabels[role]}
                        </option>
                      ))}
                    </select>
                  </>
                ) : (
                  <span className="role-badge">{roleLabels[member.role]}</span>
                )}
                {member.userId !== me && mayChange(member) ? (
                  <button
                    type="button"
                    className="button"
                    disabled={remove.isPending}
                    onClick={() => void removeMember(member)}
                    aria-label={`Remove ${member.full_name || member.email}`}
                  >
                    Remove
                  </button>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      ) : null}
      <LeaveTeam team={team} userId={me} />
    </section>
  );
}

/** Leaving the team, after a confirmation. */
function LeaveTeam({ team, userId }: { team: Team; userId: string }) {
  const leave = useRemoveMember();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const confirm = async () => {
    setError(null);
    try {
      await leave.mutateAsync({ publicId: team.public_id, userId, leaving: true });
      setOpen(false);
      notify.success(sentence(`You left ${team.name}`));
    } catch (failure) {
      setOpen(false);
      setError(messageOf(failure, 'You could not leave the team.'));
    }
  };

  return (
    <div className="team__leave">
      <FormAlert message={error} />
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={`Leave ${team.name}?`}
        confirmLabel="Leave team"
        onConfirm={() => void confirm()}
        busy={leave.isPending}
        trigger={
          <button type="button" className="button" disabled={!userId}>
            Leave team
          </button>
        }
      >
        <p>You will no longer see this team's inventory, quotes or settings. To come back, someone must invite you again.</p>
      </ConfirmDialog>
    </div>
  );
}
