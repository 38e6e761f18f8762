// Where the design library meets the teams: its pages are given the current team and whether the
// person's role there may change the library, so the designs feature does not import the teams
// feature (features never import one another).
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';

import { pageTitle, paths } from '@/config/paths';
import { DesignPage } from '@/features/designs/design-page';
import { DesignsPage } from '@/features/designs/designs-page';
import type { LibraryAccess } from '@/features/designs/types';
import { useTeamStore } from '@/features/teams/store';

function WithTeam({ title, page }: { title: string; page: (access: LibraryAccess) => ReactNode }) {
  const teamId = useTeamStore((state) => state.currentTeamPublicId);
  const team = useTeamStore((state) => state.currentTeam);
  const loading = useTeamStore((state) => state.loading);
  if (!team || !teamId) {
    return (
      <div className="designs">
        <title>{pageTitle(title)}</title>
        <h1>{title}</h1>
        {loading ? (
          <p role="status">Loading your teams…</p>
        ) : (
          <p>
            No team is selected. Choose one with the team switcher at the top of the page, or go back to the{' '}
            <Link to={paths.dashboard}>dashboard</Link>.
          </p>
        )}
      </div>
    );
  }
  // Viewers read; members, admins and owners upload, rename and remove (the server refuses the
  // rest regardless).
  return page({ teamId, canWrite: team.role !== 'viewer' });
}

export function DesignsRoute() {
  // Keyed by team: a switch of team starts the page afresh (search, page, uploads under way).
  return <WithTeam title="Design Library" page={(access) => <DesignsPage key={access.teamId} {...access} />} />;
}

export function DesignRoute() {
  const { designId = '' } = useParams();
  return <WithTeam title="Design" page={(access) => <DesignPage {...access} designId={designId} />} />;
}
