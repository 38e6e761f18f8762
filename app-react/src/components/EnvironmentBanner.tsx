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
    <div className={`env-banner env-banner--${environment}`} role="note" aria-label="Environment">
      {label}
    </div>
  );
}
