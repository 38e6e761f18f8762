// The global loading indicator (docs/behaviour.md, "Layouts, loading and banners"): on while any
// product API call runs, every call included, as the API client counts them. A thin bar fixed
// over the top edge, so showing it moves nothing; it fades in after a short delay (in the CSS), so
// quick calls do not flicker it.
import { apiActivity } from '@/lib/api-client';

export function LoadingBar() {
  const busy = apiActivity.use((state) => state.running > 0);
  if (!busy) return null;
  return (
    <div className="loading-bar" role="progressbar" aria-label="Loading" aria-busy="true">
      <div className="loading-bar__runner" />
    </div>
  );
}
