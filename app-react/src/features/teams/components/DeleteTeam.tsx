import { useId, useState } from 'react';
import { useNavigate } from 'react-router';

import { ConfirmDialog } from '@/components/ConfirmDialog';
import { FormAlert } from '@/components/form';
import { paths } from '@/config/paths';
import { notify } from '@/lib/toast';

import { useDeleteTeam } from '../api/delete-team';
import type { Team } from '../types';
import { messageOf } from './errors';

/** Deletes the team, after a confirmation that names it (owners only). */
export function DeleteTeam({ team }: { team: Team }) {
  const id = useId();
  const navigate = useNavigate();
  const remove = useDeleteTeam();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const confirm = async () => {
    setError(null);
    try {
      await remove.mutateAsync(team.public_id);
      setOpen(false);
      notify.success(`${team.name} was deleted.`);
      await navigate(paths.dashboard);
    } catch (failure) {
      setOpen(false);
      setError(messageOf(failure, 'The team could not be deleted.'));
    }
  };

  return (
    <section className="card profile-section danger-zone" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Delete the team</h2>
      <p>Deleting the team removes its members, invites, settings and everything it owns, for everyone. It cannot be undone.</p>
      <FormAlert message={error} />
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={`Delete ${team.name}?`}
        confirmLabel="Delete team"
        onConfirm={() => void confirm()}
        busy={remove.isPending}
        trigger={
          <button type="button" className="button button--danger">
            Delete team
          </button>
        }
      >
        <p>
          <strong>{team.name}</strong> and everything in it will be deleted for all its members. This cannot be undone.
        </p>
      </ConfirmDialog>
    </section>
  );
}
