// The full-screen loading overlay (docs/behaviour.md, "Layouts, loading and banners"). index.html
// carries the same markup so it shows before the app's JavaScript has arrived; a unit test keeps
// the two in step.

export const LOADING_TITLE = 'Loading...';
export const LOADING_TEXT = "This may take a few seconds, please don't close this page.";

export function LoadingOverlay() {
  return (
    <div className="loading-overlay" role="status" aria-live="polite">
      <div className="loading-overlay__spinner" aria-hidden="true" />
      <p className="loading-overlay__title">{LOADING_TITLE}</p>
      <p className="loading-overlay__text">{LOADING_TEXT}</p>
    </div>
  );
}
