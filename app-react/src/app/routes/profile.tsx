import { Link, useNavigate } from 'react-router';

import { paths } from '@/config/paths';
import type { TeamRef } from '@/features/profile/api/account';
import { ProfilePage } from '@/features/profile/profile-page';
import { MyInvites } from '@/features/teams/components/MyInvites';
import { useSelectTeam } from '@/features/teams/select-team';

/** A team named on the profile page: opening it selects it and shows the team page. */
function TeamLink({ team }: { team: TeamRef }) {
  const select = useSelectTeam();
  const navigate = useNavigate();
  return (
    <Link
      to={paths.team}
      onClick={(event) => {
        event.preventDefault();
        void select(team.public_id).then(() => navigate(paths.team));
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
