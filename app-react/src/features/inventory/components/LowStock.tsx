import { Link } from 'react-router';

import { paths } from '@/config/paths';

import { useThreads } from '../api/get-threads';

/** How many of the team's threads are low (docs/behaviour.md, "Low stock"), leading to the shopping list. */
export function LowStock({ teamId }: { teamId: string }) {
  // One entry a page is enough: the answer's total counts them all.
  const low = useThreads(teamId, { low: true, per_page: 1 });
  if (low.isError) return <p className="muted">The low stock could not be counted.</p>;
  if (!low.data) return <p role="status">Counting the threads that are low…</p>;
  const count = low.data.total;
  return (
    <p className="dashboard__figure">
      <strong>{count.toLocaleString()}</strong> {count === 1 ? 'thread is' : 'threads are'} low on stock.{' '}
      <Link to={paths.inventoryShoppingList}>{count === 0 ? 'Shopping list' : 'See what to buy'}</Link>
    </p>
  );
}
