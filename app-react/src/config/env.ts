// The runtime configuration the server writes into index.html as
// <script id="bobbin-config" type="application/json">, so the app knows its deployment
// (and shows the right banner) from its first render, without a request.

export const ENVIRONMENTS = ['development', 'staging', 'production'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

export interface AppConfig {
  environment: Environment;
  /** Version of the server that served this page. */
  version: string;
}

const FALLBACK: AppConfig = { environment: 'production', version: '' };

function isEnvironment(value: unknown): value is Environment {
  return typeof value === 'string' && (ENVIRONMENTS as readonly string[]).includes(value);
}

/** Reads the injected config; anything missing or malformed falls back to production. */
export function readConfig(doc: Document = document): AppConfig {
  const text = doc.getElementById('bobbin-config')?.textContent;
  if (!text) return FALLBACK;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null) return FALLBACK;
    const { environment, version } = parsed as Record<string, unknown>;
    return {
      environment: isEnvironment(environment) ? environment : FALLBACK.environment,
      version: typeof version === 'string' ? version : FALLBACK.version,
    };
  } catch {
    return FALLBACK;
  }
}

let cached: AppConfig | undefined;

/** The config of this page load. */
export function appConfig(): AppConfig {
  cached ??= readConfig();
  return cached;
}
