// Development aid: shows which responsive breakpoint (style/tokens.css) the window is in.
// Pure CSS (the name is the ::after content of components.css), so no resize listeners.

export function BreakpointHelper() {
  return <div className="breakpoint-helper" aria-hidden="true" data-testid="breakpoint-helper" />;
}
