// What the layouts show of the connection (docs/behaviour.md, "Offline"): in the header, "Offline"
// and how many changes wait to be sent; above the page, how old the data on screen is; and the
// changes made offline that the server refused when they were sent, until the person decides.
import { useQueryClient } from '@tanstack/react-query';
import { useState, useSyncExternalStore } from 'react';

import { Icon } from '@/components/Icon';
import { setCountAgain } from '@/features/inventory/api/set-quantity';
import { useOnline } from '@/lib/offline/online';
import { dismissRefused, refusedWrites, useWaitingCount } from '@/lib/offline/writes';
import { counted } from '@/lib/text';

/** The header's indicator: nothing while online with nothing to send. */
export function ConnectionIndicator() {
  const online = useOnline();
  const waiting = useWaitingCount();
  if (online && waiting === 0) return null;
  const changes = counted(waiting, 'change');
  return (
    <p className={`connection-indicator${online ? '' : ' connection-indicator--offline'}`} role="status">
      <Icon name={online ? 'refresh-cw' : 'wifi-off'} />
      <span>{online ? `Sending ${changes}` : waiting > 0 ? `Offline · ${changes} to send` : 'Offline'}</span>
    </p>
  );
}

/** HH:MM of a time, as the person's clock shows it. */
function clockTime(time: number): string {
  const date = new Date(time);
  return `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
}

/** When the oldest of the kept reads the page shows now was loaded (0: none shown). */
function useShownDataTime(): number {
  const queryCache = useQueryClient().getQueryCache();
  return useSyncExternalStore(
    (listener) => queryCache.subscribe(listener),
    () => {
      let oldest = 0;
      for (const query of queryCache.getAll()) {
        const loaded = query.state.dataUpdatedAt;
        if (query.meta?.['persist'] === true && query.isActive() && loaded > 0) oldest = oldest === 0 ? loaded : Math.min(oldest, loaded);
      }
      return oldest;
    },
  );
}

/** Above the page while offline: what the person sees is the copy kept on this device. */
export function OfflineBanner() {
  const online = useOnline();
  const loadedAt = useShownDataTime();
  if (online) return null;
  return (
    <p className="offline-banner" role="status">
      {loadedAt > 0
        ? `Offline - showing what was loaded at ${clockTime(loadedAt)}`
        : 'Offline - changes you make are kept on this device and sent when the connection returns.'}
    </p>
  );
}

/** Changes made offline that the server refused when they were sent: never dropped unseen. */
export function RefusedWrites() {
  const queryClient = useQueryClient();
  const writes = refusedWrites.use((state) => state.writes);
  const [problem, setProblem] = useState<string | null>(null);
  if (writes.length === 0) return null;
  return (
    <section className="refused-writes card" aria-labelledby="refused-writes-title">
      <h2 id="refused-writes-title">Changes not saved</h2>
      <p>These were made offline and refused by the server when the connection returned.</p>
      <ul className="item-list">
        {writes.map((write) => (
          <li key={write.id}>
            <p>
              <strong>{write.title}</strong>: {write.reason}
            </p>
            <div className="actions">
              {write.count ? (
                <button
                  type="button"
                  className="button button--primary"
                  onClick={() => {
                    if (!write.count) return;
                    setProblem(null);
                    setCountAgain(queryClient, write.count).then(
                      () => dismissRefused(write.id),
                      (error: unknown) => setProblem(error instanceof Error ? error.message : 'The count could not be saved.'),
                    );
                  }}
                >
                  Use mine ({count(write.count.quantity)})
                </button>
              ) : null}
              <button type="button" className="button" onClick={() => dismissRefused(write.id)}>
                {write.count ? 'Keep the saved count' : 'Dismiss'}
              </button>
            </div>
          </li>
        ))}
      </ul>
      {problem ? <p role="alert">{problem}</p> : null}
    </section>
  );
}

const count = (quantity: number) => String(Math.round(quantity * 100) / 100);
