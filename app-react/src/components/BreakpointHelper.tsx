// Development aid: shows which responsive breakpoint (style/tokens.css) the window is in.
// Pure CSS (components.css shows one label per media query), so it costs no resize listeners.

const BREAKPOINTS = ['xs', 'sm', 'md', 'lg', 'xl'] as const;

export function BreakpointHelper() {
  return (
    <div className="breakpoint-helper" aria-hidden="true" data-testid="breakpoint-helper">
      {BREAKPOINTS.map((name) => (
        <span key={name} className={`breakpoint-helper__${name}`}>
          {name}
        </span>
      ))}
    </div>
  );
}
