// The global loading indicator (docs/behaviour.md, "Layouts, loading and banners"): on while any
// API call runs, read from the data cache (every product API call goes through it). A thin bar
// fixed over the top edge, so showing it moves nothing; it appears only after a short delay (in the
// CSS), so quick calls do not flicker it.
import { useIsFetching, useIsMutating } from '@tanstack/react-query';

export function LoadingBar() {
  const busy = useIsFetching() + useIsMutating() > 0;
  if (!busy) return null;
  return (
    <div className="loading-bar" role="progressbar" aria-label="Loading" aria-busy="true">
      <div className="loading-bar__runner" />
    </div>
  );
}
