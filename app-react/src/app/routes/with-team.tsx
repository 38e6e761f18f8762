// A team page's frame, for the routes that hand a feature the current team: the page with the
// team and whether the person's role there may change it, or, with no team chosen, a word that
// says so. The features never import the teams feature; the routes do.
import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { pageTitle, paths } from '@/config/paths';
import { useTeamStore } from '@/features/teams/store';

export interface TeamAccess {
  teamId: string;
  /** Members, admins and owners write; viewers read (the server refuses the rest regardless). */
  canWrite: boolean;
}

/** Renders `page` with the current team, or says that no team is chosen (in `className`'s frame). */
export function WithTeam({ title, className, page }: { title: string; className: string; page: (access: TeamAccess) => ReactNode }) {
  const teamId = useTeamStore((state) => state.currentTeamPublicId);
  const team = useTeamStore((state) => state.currentTeam);
  const loading = useTeamStore((state) => state.loading);
  if (!team || !teamId) {
    return (
      <div className={className}>
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
  return page({ teamId, canWrite: team.role !== 'viewer' });
}
