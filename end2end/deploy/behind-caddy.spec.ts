import { readFileSync } from 'node:fs';

import { type BrowserContext, type Page } from '@playwright/test';

import { PASSWORD, fillLogin, uniqueEmail } from '../fixtures/accounts';
import { expect, test } from '../fixtures/test';

// Bobbin in production behind Caddy over HTTPS, as docs/deploy.md sets it up
// (scripts/test-deploy.sh starts both and an SMTP server, and runs this with deploy.config.ts).
// The e-mail goes out over SMTP: the server's lines, one JSON object a message, are in the file
// DEPLOY_MAIL_LOG.

interface Mail {
  to: string[];
  text: string;
}

/** The sign-up link in the newest e-mail to `email`, waiting for it to arrive. */
async function mailedSignupLink(email: string): Promise<string> {
  const path = process.env.DEPLOY_MAIL_LOG;
  if (!path) throw new Error('DEPLOY_MAIL_LOG is not set: run scripts/test-deploy.sh');
  let link: string | undefined;
  await expect
    .poll(
      () => {
        const mails = readFileSync(path, 'utf8')
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as Mail);
        link = mails
          .filter((mail) => mail.to.includes(email))
          .flatMap((mail) => mail.text.match(/https:\/\/\S+/g) ?? [])
          .find((url) => new URL(url).pathname === '/auth/v1/verify' && new URL(url).searchParams.get('type') === 'signup');
        return link;
      },
      { message: `a sign-up e-mail to ${email}` },
    )
    .toBeDefined();
  return link as string;
}

/** The auth cookie's chunks as the browser holds them; the test fails if there are none. */
async function authCookies(context: BrowserContext) {
  const cookies = (await context.cookies()).filter((cookie) => cookie.name.startsWith('sb-bobbin-auth-token'));
  expect(cookies.map((cookie) => cookie.name)).not.toEqual([]);
  return cookies;
}

async function expectSignedIn(page: Page, email: string) {
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('button', { name: /^Account: / })).toBeVisible();
  const profile = await page.request.get('/api/v2/users/me');
  expect(profile.status()).toBe(200);
  expect(await profile.json()).toMatchObject({ email });
}

test('through the proxy, a person signs up and in over HTTPS and the auth cookie is Secure', async ({
  page,
  context,
  browser,
  baseURL,
}) => {
  const email = uniqueEmail('deploy');

  await test.step('register: the confirmation e-mail goes out over SMTP, its link points at the https site', async () => {
    await page.goto('/register');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByRole('status')).toContainText('Check your e-mail');
    const link = await mailedSignupLink(email);
    expect(new URL(link).origin).toBe(baseURL);
    await page.goto(link);
    await expectSignedIn(page, email);
  });

  await test.step('the cookie the app wrote is sent over HTTPS only', async () => {
    const cookies = await authCookies(context);
    expect(cookies.map(({ name, secure, sameSite }) => ({ name, secure, sameSite }))).toEqual(
      cookies.map(({ name }) => ({ name, secure: true, sameSite: 'Lax' })),
    );
  });

  await test.step('sign in on the login page, in another browser: its cookie is Secure too', async () => {
    const other = await browser.newContext({ baseURL, ignoreHTTPSErrors: true });
    const signIn = await other.newPage();
    await signIn.goto('/login');
    await fillLogin(signIn, { email, password: PASSWORD });
    await expectSignedIn(signIn, email);
    const cookies = await authCookies(other);
    expect(cookies.map(({ name, secure }) => ({ name, secure }))).toEqual(cookies.map(({ name }) => ({ name, secure: true })));
    await other.close();
  });
});
