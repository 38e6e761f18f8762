import { defineConfig, devices } from '@playwright/test';

// Playwright cannot download its browsers on these machines: it drives Debian's Chromium
// (scripts/ensure-chromium.sh installs it). CHROMIUM_PATH points elsewhere if needed.
export const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// Without these, Chromium floods a closed network with connections it will never make.
export const args = [
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const servers = {
  development: 'http://127.0.0.1:3100',
  production: 'http://127.0.0.1:3101',
};

/**
 * A development server on PostgreSQL, for the storage client's suite (issue 49: "storage-js
 * unmodified, on SQLite and PostgreSQL"), when BOBBIN_TEST_POSTGRES_URL names a server to make its
 * database on: `make test-e2e` runs Playwright under scripts/with-postgres.sh, which always does.
 */
const postgres = process.env.BOBBIN_TEST_POSTGRES_URL ? 'http://127.0.0.1:3103' : null;

export default defineConfig({
  testDir: './tests',
  forbidOnly: true,
  retries: 0,
  workers: 2,
  timeout: 30_000,
  // An assertion waits up to 10 s (Playwright's default is 5 s). The machines that run
  // `make test` are shared and, some days, run at under half their usual speed; a page's first
  // load (its chunks, then the WebAssembly core compiled) takes about 1 s on an idle one. A wait
  // is only an upper bound: an assertion returns as soon as it holds.
  expect: { timeout: 10_000 },
  reporter: [['list'], ['./failures-reporter.ts']],
  outputDir: './test-results',
  use: {
    launchOptions: { executablePath, args },
    trace: 'retain-on-failure',
    // The service worker would answer the app's files from its precache, past the tests that
    // block or count those requests; offline.spec.ts, which is about it, allows it.
    serviceWorkers: 'block',
  },
  projects: [
    {
      name: 'development',
      testIgnore: /production\.spec\.ts/,
      use: { ...devices['Desktop Chrome'], baseURL: servers.development },
    },
    {
      name: 'production',
      testMatch: /production\.spec\.ts/,
      use: { ...devices['Desktop Chrome'], baseURL: servers.production },
    },
    {
      // The official auth client (@supabase/auth-js) against the auth service, from Node: no
      // browser is launched, since these tests use neither `page` nor `context`. Its own folder,
      // so neither this project nor the browser projects pick up the other's files.
      name: 'auth-client',
      testDir: './auth-client',
      use: { baseURL: servers.development },
    },
    {
      // The official storage client (@supabase/storage-js) against the storage service area,
      // from Node, with the auth-client suite's accounts.
      name: 'storage-client',
      testDir: './storage-client',
      use: { baseURL: servers.development },
    },
    ...(postgres ? [{ name: 'storage-client-postgres', testDir: './storage-client', use: { baseURL: postgres } }] : []),
  ],
  webServer: [
    ...Object.entries(servers).map(([environment, url]) => ({ command: `bash serve.sh ${environment} ${new URL(url).port}`, url })),
    ...(postgres ? [{ command: `bash serve.sh development ${new URL(postgres).port} postgres`, url: postgres }] : []),
  ].map(({ command, url }) => ({
    command,
    url: `${url}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
  })),
});
