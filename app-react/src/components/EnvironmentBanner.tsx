import type { Environment } from '@/config/env';

const LABELS: Record<Environment, string | null> = {
  development: 'Development',
  staging: 'Staging',
  production: null,
};

/** Says which deployment this is, so nobody mistakes a test system for the real one. */
export function EnvironmentBanner({ environment }: { environment: Environment }) {
  const label = LABELS[environment];
  if (!label) return null;
  return (
    // A landmark of its own, outside the page's header, main and footer, so nothing on the
    // page is outside a landmark (axe's "region" rule).
    <aside className={`env-banner env-banner--${environment}`} aria-label="Environment">
      {label}
    </aside>
  );
}
