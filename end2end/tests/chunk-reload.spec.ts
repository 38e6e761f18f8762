import type { Page } from '@playwright/test';

import { expect, test } from '../fixtures/test';

// A failed page chunk is fetched again up to 3 times ("Failed fetches are retried up to 3
// times"); when it still fails, a single page reload, guarded by a 10-second window
// (docs/behaviour.md, "Page chunks"). Route chunks are the hashed chunk files index.html does not
// preload. The failed loads are logged by the browser, as they would be for a person. Logged in,
// the first such chunk is the auth client's (the login guard loads it), then the page's own.
test.use({ allowPageErrors: true, signedIn: true });

async function preloadedChunks(page: Page): Promise<Set<string>> {
  const html = await (await page.request.get('/')).text();
  return new Set([...html.matchAll(/href="(\/assets\/chunk-[^"]+)"/g)].map((match) => match[1]));
}

function countDocumentLoads(page: Page): () => number {
  let loads = 0;
  page.on('request', (request) => {
    if (request.resourceType() === 'document') loads += 1;
  });
  return () => loads;
}

test('a route chunk that fails to load once is fetched again, without a reload', async ({ page }) => {
  const preloaded = await preloadedChunks(page);
  let failed = 0;
  await page.route('**/assets/chunk-*.js', async (route) => {
    const path = new URL(route.request().url()).pathname;
    if (!preloaded.has(path) && failed === 0) {
      failed += 1;
      await route.abort();
    } else {
      await route.continue();
    }
  });
  const documentLoads = countDocumentLoads(page);

  await page.goto('/missing/page');

  await expect(page.getByText('Page not found: /missing/page')).toBeVisible();
  expect(failed).toBe(1);
  expect(documentLoads()).toBe(1);
});

test('a route chunk that fails 4 times in a row is fixed by one page reload', async ({ page }) => {
  const preloaded = await preloadedChunks(page);
  const failures = new Map<string, number>();
  await page.route('**/assets/chunk-*.js', async (route) => {
    const path = new URL(route.request().url()).pathname;
    const failed = failures.get(path) ?? 0;
    if (!preloaded.has(path) && failures.size <= 1 && failed < 4 && (failures.size === 0 || failures.has(path))) {
      failures.set(path, failed + 1);
      await route.abort();
    } else {
      await route.continue();
    }
  });
  const documentLoads = countDocumentLoads(page);

  await page.goto('/missing/page');

  await expect(page.getByText('Page not found: /missing/page')).toBeVisible();
  expect([...failures.values()]).toEqual([4]);
  expect(documentLoads()).toBe(2);
});

test('a route chunk that keeps failing shows the error page after one reload, not a loop', async ({ page }) => {
  const preloaded = await preloadedChunks(page);
  await page.route('**/assets/chunk-*.js', async (route) => {
    const path = new URL(route.request().url()).pathname;
    if (preloaded.has(path)) await route.continue();
    else await route.abort();
  });
  const documentLoads = countDocumentLoads(page);

  await page.goto('/missing/page');

  await expect(page.getByRole('heading', { name: 'Internal Server Error' })).toBeVisible();
  expect(documentLoads()).toBe(2);
});
