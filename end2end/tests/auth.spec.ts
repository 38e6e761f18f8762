import type { APIRequestContext } from '@playwright/test';

import { expect, test } from '../fixtures/test';

// The sign-in screens against the development server (serve.sh): e-mail goes to the outbox,
// read here through /dev/mailbox.json as a person would read their inbox.

const PASSWORD = 'Stitch-Count-4812';

/** An address no other test uses (the server sends one e-mail per address per minute). */
function uniqueEmail(tag: string): string {
  return `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/** The verify link of the newest e-mail to `email`, waiting for it to arrive. */
async function verifyLink(request: APIRequestContext, email: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(async () => {
      const mails: { to: string; links: string[] }[] = await (await request.get('/dev/mailbox.json')).json();
      link = mails.find((mail) => mail.to === email)?.links.find((url) => url.includes('/auth/v1/verify'));
      return link;
    })
    .toBeDefined();
  return link as string;
}

test('registering, then the confirmation link, signs the person in', async ({ page, context }) => {
  const email = uniqueEmail('register');
  await page.goto('/register');
  await expect(page).toHaveTitle('Bobbin - Register');
  await page.getByLabel('Full name (optional)').fill('Ada Lovelace');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('status')).toContainText(email);

  // The link goes through /auth/callback, which exchanges the PKCE code this browser holds.
  await page.goto(await verifyLink(page.request, email));
  await expect(page).toHaveURL(/\/auth\/confirm$/);
  await expect(page.getByRole('heading', { name: 'E-mail confirmed' })).toBeVisible();

  const cookies = await context.cookies();
  expect(cookies.some((cookie) => cookie.name.startsWith('sb-bobbin-auth-token'))).toBe(true);
  // The product API knows the person from that cookie.
  const profile = await page.request.get('/api/v2/users/me');
  expect(profile.status()).toBe(200);
  expect(await profile.json()).toMatchObject({ email, full_name: 'Ada Lovelace' });
});

test.describe(() => {
  // The browser logs the service's 422 answer as a failed resource load: expected here.
  test.use({ allowPageErrors: true });

  test('a weak password is refused with what to change', async ({ page }) => {
    await page.goto('/register');
    await page.getByLabel('E-mail').fill(uniqueEmail('weak'));
    await page.getByLabel('Password').fill('password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByRole('alert')).toContainText('lists of common passwords');
  });
});

test('logging in goes on to the page named by ?redirect=', async ({ page }) => {
  const email = uniqueEmail('login');
  const signup = await page.request.post('/auth/v1/signup', { data: { email, password: PASSWORD } });
  expect(signup.status()).toBe(200);
  // Confirm the address by following the e-mailed link outside the page.
  expect((await page.request.get(await verifyLink(page.request, email))).ok()).toBe(true);

  await page.goto('/login?redirect=%2Ftools%2Fthread-converter%3Fhex%3D%2523aa3344');
  await expect(page).toHaveTitle('Bobbin - Login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/tools\/thread-converter\?hex=%23aa3344$/);
  expect((await page.request.get('/api/v2/users/me')).status()).toBe(200);
});

test('a redirect to another site after login is ignored', async ({ page }) => {
  const email = uniqueEmail('offsite');
  await page.request.post('/auth/v1/signup', { data: { email, password: PASSWORD } });
  await page.request.get(await verifyLink(page.request, email));

  await page.goto('/login?redirect=%2F%2Fevil.example%2F');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/$/);
});
