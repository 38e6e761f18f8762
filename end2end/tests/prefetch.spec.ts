import type { Page } from '@playwright/test';

import { expect, test } from '../fixtures/test';

// Payload prefetch (docs/behaviour.md, "Page chunks"): one second after a page settles, the code
// of the pages it links to is fetched, unless the connection is slow-2g or the person asked to
// save data. Chunk names are hashes, so the test tells Inventory's code by its effect: with the
// prefetch, following the header's Inventory link fetches no code at all; without, it does.
test.use({ signedIn: true });

/** The paths of the script chunks the page requests from now on, in order. */
function chunkRequests(page: Page): string[] {
  const chunks: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (/^\/assets\/chunk-[^/]+\.js$/.test(pathname)) chunks.push(pathname);
  });
  return chunks;
}

/** Opens the dashboard and waits for the page to settle, the WebAssembly core (loaded when idle) included. */
async function openDashboard(page: Page): Promise<void> {
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(page.getByTestId('core-version')).toHaveAttribute('data-state', 'success');
}

async function followInventoryLink(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Inventory' }).click();
  await expect(page).toHaveURL(/\/inventory$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Calculators' })).toBeVisible();
}

test('the code of the pages a page links to is fetched a second after it settles, before any click', async ({ page }) => {
  const chunks = chunkRequests(page);
  await openDashboard(page);
  // The prefetch starts a second after the page settled, at the latest when the heading showed.
  await page.waitForTimeout(1500);

  // Inventory's chunks all came before the click: following the link fetches none.
  const beforeClick = chunks.length;
  await followInventoryLink(page);
  expect(chunks.slice(beforeClick), 'chunks fetched on following the link').toEqual([]);
});

test('nothing is fetched ahead for someone who asked to save data', async ({ page }) => {
  // Chromium reports the person's "save data" wish in navigator.connection.saveData; the test
  // sets it before any of the app's scripts run.
  await page.addInitScript(() => {
    Object.defineProperty(navigator, 'connection', { value: { effectiveType: '4g', saveData: true }, configurable: true });
  });
  const chunks = chunkRequests(page);
  await openDashboard(page);
  const opened = chunks.length;
  await page.waitForTimeout(1500);
  expect(chunks.slice(opened), 'chunks fetched without a click').toEqual([]);

  // The page's code comes when the link is followed, as without the prefetch.
  await followInventoryLink(page);
  expect(chunks.length).toBeGreaterThan(opened);
});
