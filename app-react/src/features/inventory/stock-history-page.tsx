// `/inventory/history`: the inventory's history of stock changes made by jobs (pieces done) and
// orders (spools received), newest first, each with what it moved; a change can be undone once
// (docs/behaviour.md, "Jobs").
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';

import { ConfirmDialog } from '@/components/ConfirmDialog';
import { LoadingStatus } from '@/components/LoadingStatus';
import { FormAlert } from '@/components/form';
import { inventoryThreadPath, jobPath, pageTitle, paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { useOnline } from '@/lib/offline/online';

import { HISTORY_PAGE, type StockChange, stockHistoryQueryOptions, useUndoStockChange } from './api/stock-history';
import type { InventoryAccess } from './types';

const spools = new Intl.NumberFormat('en', { minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: 'exceptZero' });
const metres = new Intl.NumberFormat('en', { maximumFractionDigits: 1, signDisplay: 'exceptZero' });
const when = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

export function StockHistoryPage({ teamId, canWrite }: InventoryAccess) {
  const [page, setPage] = useState(1);
  const history = useQuery(stockHistoryQueryOptions(teamId, page));
  const changes = history.data?.changes ?? [];
  const pages = Math.max(1, Math.ceil((history.data?.total ?? 0) / HISTORY_PAGE));
  return (
    <div className="inventory stock-history">
      <title>{pageTitle('Stock History')}</title>
      <p>
        <Link to={paths.inventoryThreads}>← Thread Inventory</Link>
      </p>
      <h1>Stock History</h1>
      <p className="lead">What jobs took from stock and what orders brought in, newest first. Each change can be undone once.</p>
      <LoadingStatus query={history}>Loading the history…</LoadingStatus>
      {history.isError && !history.data ? <p role="alert">The history could not be loaded.</p> : null}
      {history.data && changes.length === 0 ? (
        <p>No changes yet: they come when a job records pieces done or an order is received.</p>
      ) : null}
      <ol className="stock-history__list" aria-label="Stock changes">
        {changes.map((change) => (
          <Change key={change.id} teamId={teamId} canWrite={canWrite} change={change} />
        ))}
      </ol>
      {pages > 1 ? (
        <nav className="actions" aria-label="Pages of the history">
          <button type="button" className="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Newer
          </button>
          <span>
            Page {page} of {pages}
          </span>
          <button type="button" className="button" disabled={page >= pages} onClick={() => setPage(page + 1)}>
            Older
          </button>
        </nav>
      ) : null}
    </div>
  );
}

function Change({ teamId, canWrite, change }: InventoryAccess & { change: StockChange }) {
  const online = useOnline();
  const undo = useUndoStockChange(teamId);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const undone = change.undone_at !== null;
  return (
    <li className={`card stock-change${undone ? ' stock-change--undone' : ''}`}>
      <p className="stock-change__summary">
        <strong>{change.job_id ? <Link to={jobPath(change.job_id)}>{change.summary}</Link> : change.summary}</strong>{' '}
        <span className="muted">{when.format(new Date(change.created_at))}</span>
        {undone ? <span className="muted"> · undone</span> : null}
      </p>
      <ul className="stock-change__lines">
        {change.lines.map((line, index) => (
          <li key={index}>
            {line.thread_id ? <Link to={inventoryThreadPath(line.thread_id)}>{line.label}</Link> : line.label}: {spools.format(line.spools)}{' '}
            {Math.abs(line.spools) === 1 ? 'spool' : 'spools'} <span className="muted">({metres.format(line.metres)} m)</span>
          </li>
        ))}
      </ul>
      {canWrite && !undone ? (
        <ConfirmDialog
          trigger={
            <button type="button" className="button" disabled={!online || undo.isPending} aria-label={`Undo ${change.summary}`}>
              Undo
            </button>
          }
          title="Undo this change?"
          confirmLabel="Undo"
          open={confirming}
          onOpenChange={setConfirming}
          busy={undo.isPending}
          onConfirm={() => {
            setError(null);
            undo.mutate(change.id, {
              onSuccess: () => setConfirming(false),
              onError: (failure) => {
                setConfirming(false);
                setError(failure instanceof ApiError ? failure.message : 'The change could not be undone.');
              },
            });
          }}
        >
          {change.kind === 'job'
            ? 'Each thread gets back what these pieces took, and the job counts them as not done.'
            : 'The spools received are taken off the stock again, and the order is open again.'}
        </ConfirmDialog>
      ) : null}
      <FormAlert message={error} />
    </li>
  );
}
