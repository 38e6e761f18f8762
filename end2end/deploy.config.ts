import { defineConfig, devices } from '@playwright/test';

import { args, executablePath } from './playwright.config';

// The browser half of scripts/test-deploy.sh, which starts the release binary behind Caddy
// (deploy/Caddyfile, `tls internal`) and passes its address in DEPLOY_URL. Not part of the
// default configuration: run it through that script.
const baseURL = process.env.DEPLOY_URL;
if (!baseURL) throw new Error('deploy.config.ts: run scripts/test-deploy.sh, which sets DEPLOY_URL');

export default defineConfig({
  testDir: './deploy',
  forbidOnly: true,
  retries: 0,
  workers: 1,
  timeout: 30_000,
  reporter: [['list']],
  outputDir: './test-results/deploy',
  use: {
    ...devices['Desktop Chrome'],
    baseURL,
    // Caddy's own certificate authority, which Chromium does not know.
    ignoreHTTPSErrors: true,
    // Chromium refuses a service worker whose script comes with a certificate error, whatever
    // ignoreHTTPSErrors says (it logs the refusal as an error); tests/offline.spec.ts tries the worker.
    serviceWorkers: 'block',
    launchOptions: { executablePath, args },
    trace: 'retain-on-failure',
  },
});
