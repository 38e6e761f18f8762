import { useId } from 'react';

import { useSelectTeam } from '@/features/teams/select-team';
import { useTeamStore } from '@/features/teams/store';
import { useAuthState } from '@/lib/auth';
import { notify } from '@/lib/toast';

/**
 * The header's team switcher: a labelled native select (keyboard and screen-reader friendly,
 * and the phone's own picker on a phone). Choosing a team selects it (its details and members
 * load, then it becomes the default team). Shown to signed-in people with a team.
 */
export function TeamSwitcher() {
  const id = useId();
  const auth = useAuthState();
  const teams = useTeamStore((state) => state.teams);
  const current = useTeamStore((state) => state.currentTeamPublicId);
  const loading = useTeamStore((state) => state.loading);
  const select = useSelectTeam();

  if (auth.status !== 'signed-in' || teams.length === 0) return null;

  const choose = async (publicId: string) => {
    try {
      await select(publicId);
    } catch (error) {
      notify.error(`Could not switch teams: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  return (
    <div className="team-switcher">
      <label className="team-switcher__label" htmlFor={id}>
        Team
      </label>
      <select
        id={id}
        className="team-switcher__select"
        value={current}
        aria-busy={loading || undefined}
        onChange={(event) => void choose(event.target.value)}
      >
        {/* No team is current after the current one was deleted or left: the person picks. */}
        {current === '' ? (
          <option value="" disabled>
            Choose a team
          </option>
        ) : null}
        {teams.map((team) => (
          <option key={team.public_id} value={team.public_id}>
            {team.name}
          </option>
        ))}
      </select>
    </div>
  );
}
