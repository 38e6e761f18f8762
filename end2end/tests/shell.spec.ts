import { expect, test } from '../fixtures/test';

// The app's shell as the spec has it (docs/behaviour.md): the contact page, the test page of the
// vector graphics and the icons served by Bobbin, the server's 404 for a path that is no page,
// and the build manifest with its route rules.
test.use({ signedIn: true });

test('the contact page, from the footer, sends a message to the operator and says so', async ({ page, workerLogin }) => {
  const { account } = await workerLogin();
  await page.goto('/dashboard');
  await page.getByRole('contentinfo').getByRole('link', { name: 'Contact' }).click();
  await expect(page).toHaveURL(/\/contact$/);
  await expect(page.getByRole('heading', { name: 'Contact', level: 1 })).toBeVisible();
  await expect(page.getByLabel('Your e-mail address')).toHaveValue(account.email);

  // This account gave no full name at sign-up: the name is the person's to give.
  await expect(page.getByLabel('Your name')).toHaveValue('');
  await page.getByLabel('Your name').fill('Ada Lovelace');
  const subject = `Pricing question ${Date.now()}`;
  await page.getByLabel('Subject').fill(subject);
  await page.getByLabel('Message').fill('How do I price a cap with a 3D puff front?');
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'your message is on its way' })).toBeVisible();
  await page.setViewportSize({ width: 375, height: 900 });
  await page.screenshot({ path: test.info().outputPath('contact-375.png'), fullPage: true });

  // serve.sh sets BOBBIN_CONTACT_EMAIL; without SMTP the development server keeps mail in its outbox.
  const mails = (await (await page.request.get('/dev/mailbox.json')).json()) as { to: string; subject: string; text: string }[];
  const mail = mails.find((sent) => sent.subject === `[Bobbin contact] ${subject}`);
  expect(mail?.to).toBe('help@bobbin.test');
  expect(mail?.text).toContain(`Their account: ${account.email}.`);
});

test('/test/vector shows every icon, served by Bobbin, and the missing glyph only where meant', async ({ page }) => {
  const icons: { url: string; status: number; type: string | undefined }[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.startsWith('/icons/')) {
      icons.push({ url: response.url(), status: response.status(), type: response.headers()['content-type'] });
    }
  });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/test/vector');
  await expect(page.getByRole('heading', { name: 'Test vector graphics' })).toBeVisible();
  const menuCell = page.getByTestId('icon-menu-24');
  // Fetched from /icons/ and drawn as a mask: Lucide's three lines of the menu.
  await expect(menuCell.locator('.icon')).toHaveCSS('mask-image', /^url\("data:image\/svg\+xml,.*M4%205h16M4%2012h16M4%2019h16/);
  await expect.poll(() => icons.filter((icon) => icon.url.endsWith('/menu.svg')).length).toBeGreaterThan(0);

  for (const name of ['menu', 'chevron-down']) {
    const svg = await (await page.request.get(`/icons/lucide/${name}.svg`)).text();
    expect(svg, name).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg, `${name} is Lucide's, not the missing glyph`).not.toContain('stroke-dasharray');
  }
  const missing = await page.request.get('/icons/lucide/not-an-icon-of-bobbin.svg');
  expect(missing.status()).toBe(200);
  expect(await missing.text()).toContain('stroke-dasharray');
  expect(
    icons.every((icon) => icon.status === 200 && icon.type === 'image/svg+xml'),
    JSON.stringify(icons),
  ).toBe(true);
  await page.screenshot({ path: test.info().outputPath('test-vector-375.png'), fullPage: true });
});

test.describe('the server', () => {
  // The browser logs the 404 of the document as a failed load.
  test.use({ allowFailedRequests: true });

  test('answers a path that is no page 404 with the app, which says so; a page is 200', async ({ page }) => {
    const missing = await page.goto('/no/such/page');
    expect(missing?.status()).toBe(404);
    await expect(page.getByText('Page not found: /no/such/page')).toBeVisible();

    const dashboard = await page.goto('/dashboard');
    expect(dashboard?.status()).toBe(200);
    const thread = await page.goto('/inventory/threads/not-an-id');
    // Known to the server (a thread's page); the app's validation refuses the id.
    expect(thread?.status()).toBe(200);
    await expect(page.getByText('Page Not Found: /inventory/threads/not-an-id')).toBeVisible();
  });
});

test('the build manifest names this build, and its route rules lead old paths on', async ({ page }) => {
  const latest = await page.request.get('/builds/latest.json');
  expect(latest.headers()['cache-control']).toBe('no-store');
  const { id } = (await latest.json()) as { id: string };
  await page.goto('/tools?from=bookmark');
  await expect(page).toHaveURL(/\/calculators\?from=bookmark$/);
  await expect(page.locator('meta[name="bobbin-build"]')).toHaveAttribute('content', id);
  const meta = (await (await page.request.get(`/builds/meta/${id}.json`)).json()) as { routeRules: Record<string, unknown> };
  expect(Object.keys(meta.routeRules)).toContain('/tools');
});
