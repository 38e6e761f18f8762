// "A new version is out" (docs/behaviour.md, "New deployments"): polls the latest build while the
// app is open and, once a newer one than this page's is out (or a service worker of one waits),
// offers a reload. Not forced: the
// person may be typing; the next navigation loads the new build anyway (app/guards.ts).
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';

import { buildState, currentBuildId, latestBuildQueryOptions } from '@/lib/builds';
import { checkForUpdate, reloadIntoNewBuild } from '@/lib/offline/service-worker';

export function NewBuildNotice() {
  // A page that names no build (unit tests, a placeholder build) has nothing to compare.
  useQuery({ ...latestBuildQueryOptions, enabled: currentBuildId() !== null });
  const newBuild = buildState.use((state) => state.newBuild);
  const workerWaiting = buildState.use((state) => state.workerWaiting);
  // The service worker fetches the new build's files now, so the reload (and offline use after
  // it) has them.
  useEffect(() => {
    if (newBuild) void checkForUpdate();
  }, [newBuild]);
  if (!newBuild && !workerWaiting) return null;
  return (
    <div className="new-build" role="status">
      <p>A new version of Bobbin is out.</p>
      <button
        type="button"
        className="button"
        onClick={() => {
          void reloadIntoNewBuild();
        }}
      >
        Reload
      </button>
    </div>
  );
}
