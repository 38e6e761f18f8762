// Where the inventory meets the teams: the inventory pages are given the current team and
// whether the person's role there may change it, so the inventory feature does not import the
// teams feature (features never import one another).
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';

import { pageTitle, paths } from '@/config/paths';
import { useTeamStore } from '@/features/teams/store';
import { defaultReorderPoint, preferredThreadLine } from '@/features/teams/types';
import { MachinePage } from '@/features/inventory/machine-page';
import { MachinesPage } from '@/features/inventory/machines-page';
import { ShoppingListPage } from '@/features/inventory/shopping-list-page';
import { ThreadPage } from '@/features/inventory/thread-page';
import { ThreadsPage } from '@/features/inventory/threads-page';
import type { InventoryAccess } from '@/features/inventory/types';

/** Renders `page` with the current team, or says that no team is chosen. */
function WithTeam({ title, page }: { title: string; page: (access: InventoryAccess) => ReactNode }) {
  const teamId = useTeamStore((state) => state.currentTeamPublicId);
  const team = useTeamStore((state) => state.currentTeam);
  const loading = useTeamStore((state) => state.loading);
  if (!team || !teamId) {
    return (
      <div className="inventory">
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
  // Viewers read; members, admins and owners write (the server refuses the rest regardless).
  return page({ teamId, canWrite: team.role !== 'viewer' });
}

export function ThreadsRoute() {
  // The team's preferred line is where the catalogue search and Add many start.
  const preferredLine = useTeamStore((state) => preferredThreadLine(state.settings));
  return <WithTeam title="Thread Inventory" page={(access) => <ThreadsPage {...access} preferredLine={preferredLine} />} />;
}

export function ThreadRoute() {
  const { threadId = '' } = useParams();
  return <WithTeam title="Thread Details" page={(access) => <ThreadPage {...access} threadId={threadId} />} />;
}

export function ShoppingListRoute() {
  const reorderPoint = useTeamStore((state) => defaultReorderPoint(state.settings));
  return <WithTeam title="Shopping List" page={({ teamId }) => <ShoppingListPage teamId={teamId} defaultReorderPoint={reorderPoint} />} />;
}

export function MachinesRoute() {
  return <WithTeam title="Machines" page={(access) => <MachinesPage {...access} />} />;
}

export function MachineRoute() {
  const { machineId = '' } = useParams();
  return <WithTeam title="Machine Details" page={(access) => <MachinePage {...access} machineId={machineId} />} />;
}
