import { expect, test } from '../fixtures/test';

test('the landing page is titled and shows the core version computed by the WebAssembly module', async ({ page, request }) => {
  const wasmResponse = page.waitForResponse((response) => response.url().endsWith('.wasm'));

  await page.goto('/');

  await expect(page).toHaveTitle('Bobbin - Home');
  const wasm = await wasmResponse;
  expect(wasm.status()).toBe(200);
  // Served for streaming compilation, from a hashed URL cached for good.
  expect(wasm.headers()['content-type']).toBe('application/wasm');
  expect(wasm.headers()['cache-control']).toBe('max-age=31536000, immutable');
  const meta = (await (await request.get('/api/v2/meta')).json()) as { core_version: string };
  await expect(page.getByTestId('core-version')).toHaveText(`core ${meta.core_version}`);
});

test.describe('without the WebAssembly module', () => {
  test.use({ allowPageErrors: true });

  test('no core version is shown', async ({ page }) => {
    await page.route('**/*.wasm', (route) => route.abort());

    await page.goto('/');

    await expect(page.getByTestId('core-version')).toHaveText('offline tools unavailable');
  });
});

test.describe('logged in', () => {
  // Every page but the landing and sign-in pages needs a login, the not-found page included. The
  // server answers a path that is no page 404, which the browser logs as a failed load.
  test.use({ signedIn: true, allowFailedRequests: true });

  test('the WebAssembly module is fetched once per page load, not once per page', async ({ page }) => {
    const wasmRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('.wasm')) wasmRequests.push(request.url());
    });

    await page.goto('/no/such/page');
    await expect(page.getByTestId('core-version')).toHaveText(/^core /);
    await page.getByRole('link', { name: 'Go to the home page' }).click();
    await expect(page).toHaveTitle('Bobbin - Home');
    await expect(page.getByTestId('core-version')).toHaveText(/^core /);

    expect(wasmRequests).toHaveLength(1);
  });

  test('a path that is no page, opened or reloaded directly, still renders the app (status 404)', async ({ page }) => {
    const response = await page.goto('/tools/some/deep/link?tab=x');
    expect(response?.status()).toBe(404);
    await expect(page.getByText('Page not found: /tools/some/deep/link')).toBeVisible();

    await page.reload();

    await expect(page.getByText('Page not found: /tools/some/deep/link')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
    await page.getByRole('link', { name: 'Go to the home page' }).click();
    await expect(page).toHaveTitle('Bobbin - Home');
  });
});

test.describe('a path that is no page', () => {
  // Answered 404 by the server, which the browser logs as a failed load.
  test.use({ allowFailedRequests: true });

  test('needs a login too: a logged-out visitor goes to the login page, keeping the full path', async ({ page }) => {
    await page.goto('/tools/some/deep/link?tab=x');
    await expect(page).toHaveURL(/\/login\?redirect=%2Ftools%2Fsome%2Fdeep%2Flink%3Ftab%3Dx$/);
    await expect(page.getByRole('heading', { name: 'Login' })).toBeVisible();
  });
});

test('a logged-out visitor never loads the auth client on the landing and login pages', async ({ page }) => {
  const loading: Promise<string>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') loading.push(response.text());
  });

  await page.goto('/');
  await expect(page.getByTestId('core-version')).toHaveText(/^core /);
  await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Log in' }).click();
  await expect(page.getByRole('heading', { name: 'Login' })).toBeVisible();

  const scripts = await Promise.all(loading);
  expect(scripts.length).toBeGreaterThan(0);
  // @supabase/ssr names itself in a header it sends; the string survives minifying.
  expect(scripts.filter((script) => script.includes('supabase-ssr/'))).toEqual([]);
});

test("development shows the 'Development' banner and the breakpoint helper", async ({ page }) => {
  await page.goto('/');

  await expect(page.getByRole('complementary', { name: 'Environment' })).toHaveText('Development');
  // The breakpoint's name is the helper's CSS ::after content.
  const helper = page.getByTestId('breakpoint-helper');
  const shown = () => helper.evaluate((element) => getComputedStyle(element, '::after').content);
  await expect(helper).toBeVisible();
  await page.setViewportSize({ width: 375, height: 700 });
  await expect.poll(shown).toBe('"xs"');
  await page.setViewportSize({ width: 1100, height: 800 });
  await expect.poll(shown).toBe('"lg"');
});

test('the loading overlay shows its texts until the app has loaded', async ({ page }) => {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/assets/main-*.js', async (route) => {
    await held;
    await route.continue();
  });

  await page.goto('/', { waitUntil: 'commit' });

  const overlay = page.getByRole('status');
  await expect(overlay).toContainText('Loading...');
  await expect(overlay).toContainText("This may take a few seconds, please don't close this page.");
  release();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByText('Loading...')).toHaveCount(0);
});

test('the landing page does not shift while it loads', async ({ page }) => {
  await page.addInitScript(() => {
    (window as unknown as { cls: number }).cls = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) {
        if (!entry.hadRecentInput) (window as unknown as { cls: number }).cls += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });

  await page.goto('/');
  await expect(page.getByTestId('core-version')).toHaveText(/^core /);

  const cls = await page.evaluate(() => (window as unknown as { cls: number }).cls);
  expect(cls).toBeLessThan(0.01);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });

  test('the landing page fits the screen without sideways scrolling', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
