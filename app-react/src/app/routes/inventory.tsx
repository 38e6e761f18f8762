// Where the inventory meets the teams: the inventory pages are given the current team and
// whether the person's role there may change it, so the inventory feature does not import the
// teams feature (features never import one another).
import { useParams } from 'react-router';

import { useTeamStore } from '@/features/teams/store';
import { defaultReorderPoint, preferredThreadLine } from '@/features/teams/types';
import { MachinePage } from '@/features/inventory/machine-page';
import { MachinesPage } from '@/features/inventory/machines-page';
import { ShoppingListPage } from '@/features/inventory/shopping-list-page';
import { StockHistoryPage } from '@/features/inventory/stock-history-page';
import { ThreadPage } from '@/features/inventory/thread-page';
import { ThreadsPage } from '@/features/inventory/threads-page';

import { WithTeam } from './with-team';

export function ThreadsRoute() {
  // The team's preferred line is where the catalogue search and Add many start.
  const preferredLine = useTeamStore((state) => preferredThreadLine(state.settings));
  return (
    <WithTeam className="inventory" title="Thread Inventory" page={(access) => <ThreadsPage {...access} preferredLine={preferredLine} />} />
  );
}

export function ThreadRoute() {
  const { threadId = '' } = useParams();
  return <WithTeam className="inventory" title="Thread Details" page={(access) => <ThreadPage {...access} threadId={threadId} />} />;
}

export function ShoppingListRoute() {
  const reorderPoint = useTeamStore((state) => defaultReorderPoint(state.settings));
  const currency = useTeamStore((state) => (typeof state.settings.currency === 'string' ? state.settings.currency : null));
  return (
    <WithTeam
      className="inventory"
      title="Shopping List"
      page={(access) => <ShoppingListPage {...access} defaultReorderPoint={reorderPoint} currency={currency} />}
    />
  );
}

export function StockHistoryRoute() {
  return <WithTeam className="inventory" title="Stock History" page={(access) => <StockHistoryPage {...access} />} />;
}

export function MachinesRoute() {
  return <WithTeam className="inventory" title="Machines" page={(access) => <MachinesPage {...access} />} />;
}

export function MachineRoute() {
  const { machineId = '' } = useParams();
  return <WithTeam className="inventory" title="Machine Details" page={(access) => <MachinePage {...access} machineId={machineId} />} />;
}
