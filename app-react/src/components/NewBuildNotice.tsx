// "A new version is out" (docs/behaviour.md, "New deployments"): polls the latest build while the
// app is open and, once a newer one than this page's is out, offers a reload. Not forced: the
// person may be typing; the next navigation loads the new build anyway (app/guards.ts).
import { useQuery } from '@tanstack/react-query';

import { buildState, currentBuildId, latestBuildQueryOptions } from '@/lib/builds';

export function NewBuildNotice() {
  // A page that names no build (unit tests, a placeholder build) has nothing to compare.
  useQuery({ ...latestBuildQueryOptions, enabled: currentBuildId() !== null });
  const newBuild = buildState.use((state) => state.newBuild);
  if (!newBuild) return null;
  return (
    <div className="new-build" role="status">
      <p>A new version of Bobbin is out.</p>
      <button
        type="button"
        className="button"
        onClick={() => {
          window.location.reload();
        }}
      >
        Reload
      </button>
    </div>
  );
}
