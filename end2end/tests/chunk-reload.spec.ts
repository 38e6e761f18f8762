import type { Page, Route } from '@playwright/test';

import { expect, test } from '../fixtures/test';

// A failed page chunk is fetched again up to 3 times ("Failed fetches are retried up to 3
// times"); when it still fails, a single page reload, guarded by a 10-second window
// (docs/behaviour.md, "Page chunks"). Route chunks are the hashed chunk files index.html does not
// preload. The failed loads are logged by the browser, as they would be for a person. Logged in,
// the page's own chunk and the auth client's (the page asks it whose session the cookie holds)
// are both fetched as the page loads, in either order; the first to be asked for is the one that
// fails.
test.use({ allowPageErrors: true, signedIn: true });

// A chunk fetched ahead (the prefetch of linked pages) may still be in a handler as the test
// ends; its page is gone by then.
test.afterEach(async ({ page }) => {
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});

async function preloadedChunks(page: Page): Promise<Set<string>> {
  const html = await (await page.request.get('/')).text();
  return new Set([...html.matchAll(/href="(\/assets\/chunk-[^"]+)"/g)].map((match) => match[1]));
}

// workbox-window's chunk, loaded when the service worker is registered (the page idle), is no
// route chunk: when it fails the page goes without a worker, and nothing reloads. It names its
// version in what it holds.
const WORKBOX_MARK = 'workbox:window';

/** Whether `route` asks for workbox-window's chunk (fetched to look, then let through by the caller). */
async function isWorkboxChunk(route: Route): Promise<boolean> {
  return (await (await route.fetch()).text()).includes(WORKBOX_MARK);
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
    // Looked at first: the check below must not wait between reading and counting.
    const workbox = !preloaded.has(path) && (await isWorkboxChunk(route));
    if (!preloaded.has(path) && !workbox && failed === 0) {
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

// The auth client's chunk (lib/auth.ts) goes by the same rule. It is told apart by what it holds:
// the client names itself in its requests' headers.
const AUTH_CLIENT_MARK = 'supabase-ssr';

test("the auth client's chunk that fails to load once is fetched again, without a reload", async ({ page }) => {
  let fetches = 0;
  await page.route('**/assets/chunk-*.js', async (route) => {
    const response = await route.fetch();
    if (!(await response.text()).includes(AUTH_CLIENT_MARK)) return route.fulfill({ response });
    fetches += 1;
    return fetches === 1 ? route.abort() : route.fulfill({ response });
  });
  const documentLoads = countDocumentLoads(page);

  await page.goto('/missing/page');

  await expect(page.getByText('Page not found: /missing/page')).toBeVisible();
  // A signed-in page asks the auth client whose session the cookie holds as it loads.
  await expect.poll(() => fetches).toBe(2);
  expect(documentLoads()).toBe(1);
});

test('a route chunk that fails 4 times in a row is fixed by one page reload', async ({ page }) => {
  const preloaded = await preloadedChunks(page);
  const failures = new Map<string, number>();
  await page.route('**/assets/chunk-*.js', async (route) => {
    const path = new URL(route.request().url()).pathname;
    // Looked at first: the check below must not wait between reading and counting.
    const workbox = !preloaded.has(path) && (await isWorkboxChunk(route));
    const failed = failures.get(path) ?? 0;
    if (!preloaded.has(path) && !workbox && failures.size <= 1 && failed < 4 && (failures.size === 0 || failures.has(path))) {
      failures.set(path, failed + 1);
      await route.abort();
    } else {
      await route.continue();
    }
  });
  const documentLoads = countDocumentLoads(page);

  await page.goto('/missing/page');

  // The page may show before the reload, when the chunk that fails is the auth client's. Four
  // tries with the retries' 1.75 s between them, then the reload: on a busy 2-core machine, in
  // the full run, that took longer than the default 5 s.
  await expect.poll(documentLoads, { timeout: 15_000 }).toBe(2);
  await expect(page.getByText('Page not found: /missing/page')).toBeVisible();
  expect([...failures.values()]).toEqual([4]);
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

  // Two rounds of retries (1.75 s each), one before the reload and one after.
  await expect(page.getByRole('heading', { name: 'Internal Server Error' })).toBeVisible({ timeout: 15_000 });
  expect(documentLoads()).toBe(2);
});
