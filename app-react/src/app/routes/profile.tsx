import { Link, useNavigate } from 'react-router';

import { paths } from '@/config/paths';
import type { TeamRef } from '@/features/profile/api/account';
import { ProfilePage } from '@/features/profile/profile-page';
import { MyInvites } from '@/features/teams/components/MyInvites';
import { useSelectTeam } from '@/features/teams/select-team';
import { notify } from '@/lib/toast';

/** A team named on the profile page: opening it selects it and shows the team page. */
export function TeamLink({ team }: { team: TeamRef }) {
  const select = useSelectTeam();
  const navigate = useNavigate();
  return (
    <Link
      to={paths.team}
      onClick={(event) => {
        event.preventDefault();
        // A switch that fails says so, as the team switcher's does: left unhandled, the
        // rejection would be taken for a crash and show the error page.
        void select(team.public_id)
          .then(() => navigate(paths.team))
          .catch((error: unknown) => notify.error(`Could not switch teams: ${error instanceof Error ? error.message : String(error)}`));
      }}
    >
      {team.name}
    </Link>
  );
}

/** `/profile`, with the teams feature's invites in its My Invites tab and its team links. */
export function ProfileRoute() {
  return <ProfilePage invites={<MyInvites />} teamLink={(team) => <TeamLink team={team} />} />;
}
