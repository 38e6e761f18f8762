import { expect, test } from '../fixtures/test';
import { args, executablePath } from '../playwright.config';

// A page on another site, which only adds the widget's script and element: no React, no app.
// Another origin on loopback (localhost, not 127.0.0.1): Chromium blocks public pages from
// loading loopback resources, so a made-up public host would not reach the test server.
const embedderUrl = (appOrigin: string) => appOrigin.replace('127.0.0.1', 'localhost') + '/shop/threads.html';

// The test's two origins are both loopback, which Chromium's local-network checks would treat as
// a page reaching into the local network; a real embedding site and Bobbin are both public.
test.use({
  launchOptions: {
    executablePath,
    args: [...args, '--disable-features=LocalNetworkAccessChecks,BlockInsecurePrivateNetworkRequests'],
  },
});

function embedderPage(appOrigin: string): string {
  return `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>A shop's page</title>
  <script type="module" src="${appOrigin}/widget/bobbin-thread-converter.js"></script></head>
  <body>
    <h1>Our threads</h1>
    <bobbin-thread-converter from="isacord-polyester" to="madeira-polyneon" matches="2"></bobbin-thread-converter>
  </body>
</html>`;
}

test('the widget runs in a plain page on another site, without the API', async ({ page, baseURL }) => {
  const appOrigin = new URL(baseURL ?? '').origin;
  const apiRequests: string[] = [];
  await page.route('**/api/**', (route) => {
    apiRequests.push(route.request().url());
    return route.abort();
  });
  await page.route(embedderUrl(appOrigin), (route) => route.fulfill({ contentType: 'text/html', body: embedderPage(appOrigin) }));
  const wasm = page.waitForResponse((response) => response.url().endsWith('/widget/bobbin-thread-converter.wasm'));

  await page.goto(embedderUrl(appOrigin));

  expect((await wasm).headers()['access-control-allow-origin']).toBe('*');
  const widget = page.locator('bobbin-thread-converter');
  const input = widget.getByLabel('Isacord Polyester code or #hex colour');
  await input.fill('1902');
  await expect(widget.getByRole('status')).toHaveText('Closest threads to 1902 Poinsettia:');
  await expect(widget.getByRole('heading', { name: 'Madeira Polyneon' })).toBeVisible();
  await expect(widget.getByRole('listitem')).toHaveCount(2);
  await expect(widget.getByRole('listitem').first()).toContainText(/(Indistinguishable|Close|Similar|Poor match) · ΔE \d+\.\d/);

  await input.fill('nope');
  await expect(widget.getByRole('status')).toHaveText("Isacord Polyester has no thread with the code 'nope'");
  await input.fill('#1F3A93');
  await expect(widget.getByRole('status')).toHaveText('Closest threads to #1F3A93:');

  expect(apiRequests).toEqual([]);
});

test('the app serves a demo page for the widget', async ({ page }) => {
  await page.goto('/widget/demo.html');

  await expect(page).toHaveTitle('Bobbin thread converter widget');
  const first = page.locator('bobbin-thread-converter').first();
  // Its `value` attribute converts Isacord 1902 at once.
  await expect(first.getByRole('status')).toHaveText('Closest threads to 1902 Poinsettia:');
  await expect(first.getByRole('listitem')).toHaveCount(3);
});
