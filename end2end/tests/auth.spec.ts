import { type Page, request as apiRequest } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';

import { type Account, PASSWORD, createAccount, fillLogin, mailedLink, uniqueEmail } from '../fixtures/accounts';
import { expect, test } from '../fixtures/test';

// The sign-in screens against the development server (serve.sh): e-mail goes to the outbox,
// read here through /dev/mailbox.json as a person would read their inbox. Each test makes its
// own accounts: they sign out, which would end a session other tests share.

/** The account menu's button in the header, once someone is logged in. */
const accountButton = (page: Page) => page.getByRole('button', { name: /^Account: / });

/** Signs out of this device from the profile page's security tab; the app goes home. */
async function signOutHere(page: Page) {
  // As a person would: once the page has loaded what it loads. Signing out while the team
  // settings are still on their way makes them answer 401, which the browser logs as errors.
  await page.goto('/profile?tab=security', { waitUntil: 'networkidle' });
  const section = page.getByRole('region', { name: 'Sign out' });
  await expect(section.getByRole('radio', { name: /^This device/ })).toBeChecked();
  await section.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  await expect(page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Log in' })).toBeVisible();
}

// Made first, and used last: the server sends one e-mail per address per minute, so the
// recovery e-mail of the forgot-password test can only follow its sign-up e-mail after that.
let forgetful: { account: Account; signedUpAt: number } | undefined;

test.beforeAll(async ({}, testInfo) => {
  const request = await apiRequest.newContext({ baseURL: testInfo.project.use.baseURL });
  forgetful = { account: await createAccount(request, 'forgot'), signedUpAt: Date.now() };
  await request.dispose();
});

test('registering, then the confirmation link, logs the person in; logging out ends it', async ({ page, context }) => {
  const email = uniqueEmail('register');

  await test.step('register, with a full name', async () => {
    await page.goto('/register');
    await expect(page).toHaveTitle('Bobbin - Register');
    await page.getByLabel('Full name (optional)').fill('Ada Lovelace');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByRole('status')).toContainText('Check your e-mail');
    await expect(page.getByRole('status')).toContainText(email);
  });

  await test.step('the link goes through /auth/callback, which exchanges the code this browser holds, to the dashboard', async () => {
    await page.goto(await mailedLink(page.request, email));
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByText('Your e-mail address is confirmed.')).toBeVisible();
    const cookies = await context.cookies();
    expect(cookies.some((cookie) => cookie.name.startsWith('sb-bobbin-auth-token'))).toBe(true);
  });

  await test.step('logged in: the header and the product API know the person', async () => {
    await expect(accountButton(page)).toContainText('Ada Lovelace');
    const profile = await page.request.get('/api/v2/users/me');
    expect(profile.status()).toBe(200);
    expect(await profile.json()).toMatchObject({ email, full_name: 'Ada Lovelace' });
    await accountButton(page).click();
    await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Profile' }).click();
    await expect(page).toHaveTitle('Bobbin - Profile');
    await expect(page.getByRole('main').getByText(email, { exact: true })).toBeVisible();
  });

  await test.step('log out: the cookie is gone and pages that need a login say so', async () => {
    await signOutHere(page);
    const cookies = await context.cookies();
    expect(cookies.filter((cookie) => cookie.name.startsWith('sb-bobbin-auth-token.') || cookie.name === 'sb-bobbin-auth-token')).toEqual(
      [],
    );
    expect((await page.request.get('/api/v2/users/me')).status()).toBe(401);
    await page.goto('/profile');
    await expect(page).toHaveURL(/\/login\?redirect=%2Fprofile$/);
  });
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

  test('a wrong password is refused where the person is looking', async ({ page }) => {
    await page.goto('/login');
    await fillLogin(page, { email: uniqueEmail('nobody'), password: 'Not-The-Password-1' });
    await expect(page.getByRole('alert')).toHaveText('Invalid login credentials');
  });
});

test('a deep link opened logged out comes back after the login', async ({ page }) => {
  const account = await createAccount(page.request, 'deep-link');

  await page.goto('/profile?tab=security');
  await expect(page).toHaveURL(/\/login\?redirect=%2Fprofile%3Ftab%3Dsecurity$/);
  await expect(page).toHaveTitle('Bobbin - Login');
  await fillLogin(page, account);

  await expect(page).toHaveURL(/\/profile\?tab=security$/);
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toHaveText('Profile (Security)');
  await expect(page).toHaveTitle('Bobbin - Profile (Security)');
  await expect(page.getByRole('tab', { name: 'Security', selected: true })).toBeVisible();
});

test('another tab logging in or out is followed: the profile appears, or the app logs out', async ({ page, context }) => {
  const account = await createAccount(page.request, 'two-tabs');
  await page.goto('/');
  await expect(page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Log in' })).toBeVisible();

  const other = await context.newPage();
  await other.goto('/login?redirect=%2Fprofile');
  await fillLogin(other, account);
  await expect(other).toHaveURL(/\/profile$/);
  // The first tab never loaded the auth client, and still hears of the sign-in.
  await expect(accountButton(page)).toBeVisible();

  await page.goto('/profile?tab=notifications');
  await expect(page.getByRole('tab', { name: 'Notifications', selected: true })).toBeVisible();
  await signOutHere(other);
  // Signed out elsewhere: this tab logs out too, and leaves the page that needs a login.
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  await expect(page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Log in' })).toBeVisible();
});

test('logging in goes on to the page named by ?redirect=', async ({ page }) => {
  const account = await createAccount(page.request, 'login');

  await page.goto('/login?redirect=%2Ftools%2Fthread-converter%3Fhex%3D%2523aa3344');
  await fillLogin(page, account);
  await expect(page).toHaveURL(/\/tools\/thread-converter\?hex=%23aa3344$/);
  expect((await page.request.get('/api/v2/users/me')).status()).toBe(200);
});

test('a redirect to another site after login is ignored', async ({ page }) => {
  const account = await createAccount(page.request, 'offsite');

  await page.goto('/login?redirect=%2F%2Fevil.example%2F');
  await fillLogin(page, account);
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/dashboard$/);
});

test.describe('a password change', () => {
  // The refused change is a 400 the browser logs as a failed request; any other error still fails.
  test.use({ allowFailedRequests: true });

  test('changing the password on the security tab needs the current one', async ({ page }) => {
    const account = await createAccount(page.request, 'change');
    const newPassword = 'Fresh-Bobbin-5518';

    await page.goto('/login?redirect=%2Fprofile%3Ftab%3Dsecurity');
    await fillLogin(page, account);
    const section = page.getByRole('region', { name: 'Password' });
    const current = section.getByLabel('Current password');

    await test.step('a wrong current password is refused at its field, and nothing changes', async () => {
      await current.fill('Not-The-Password-1');
      await section.getByLabel('New password', { exact: true }).fill(newPassword);
      await section.getByLabel('Repeat the new password').fill(newPassword);
      await section.getByRole('button', { name: 'Change password' }).click();
      await expect(current).toHaveAttribute('aria-invalid', 'true');
      await expect(current).toHaveAccessibleDescription(/That is not your current password\./);
      await expect(current).toBeFocused();
      await expect(section.getByRole('status')).toHaveCount(0);
    });

    await test.step('the right one changes it: the new password signs in, the old one no longer does', async () => {
      await current.fill(account.password);
      await section.getByRole('button', { name: 'Change password' }).click();
      await expect(section.getByRole('status')).toHaveText('Your password is changed.');
      const old = await page.request.post('/auth/v1/token?grant_type=password', { data: account });
      expect(old.status()).toBe(400);
      const fresh = await page.request.post('/auth/v1/token?grant_type=password', {
        data: { email: account.email, password: newPassword },
      });
      expect(fresh.status()).toBe(200);
    });
  });
});

test('an authenticator app set up on the security tab is asked for at the next login', async ({ page }) => {
  const account = await createAccount(page.request, 'totp');
  let totp: TOTP | undefined;

  await test.step('log in and set up the app from its setup key', async () => {
    await page.goto('/login?redirect=%2Fprofile%3Ftab%3Dsecurity');
    await fillLogin(page, account);
    const section = page.getByRole('region', { name: 'Authenticator apps' });
    await expect(section.getByText('No authenticator app is set up.')).toBeVisible();
    await section.getByRole('button', { name: 'Set up an authenticator app' }).click();

    // The QR code is an image from a data URL, never markup in the page.
    const qr = section.getByRole('img', { name: 'QR code for your authenticator app' });
    await expect(qr).toHaveAttribute('src', /^data:image\/svg\+xml;charset=utf-8,%3Csvg/);
    await expect.poll(() => qr.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);

    const secret = await section.getByLabel('Or type this setup key into the app').inputValue();
    totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 });
    await section.getByLabel('Then enter the six-digit code the app shows').fill(totp.generate());
    await section.getByRole('button', { name: 'Verify and turn on' }).click();
    await expect(section.getByRole('status')).toContainText('Authenticator app added');
    await expect(section.getByRole('button', { name: /^Remove / })).toHaveCount(1);
  });

  await test.step('log out, then the login asks for a code after the password', async () => {
    await signOutHere(page);
    await page.goto('/login');
    await fillLogin(page, account);
    await expect(page.getByLabel('Code')).toBeVisible();
    // A code is accepted once: the next period's code (the server allows one step either way).
    await page.getByLabel('Code').fill(totp?.generate({ timestamp: Date.now() + 30_000 }) ?? '');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/dashboard$/);
    await expect(accountButton(page)).toBeVisible();
  });

  await test.step('at aal2, the app can be removed', async () => {
    await page.goto('/profile?tab=security');
    const section = page.getByRole('region', { name: 'Authenticator apps' });
    await section.getByRole('button', { name: /^Remove / }).click();
    await expect(section.getByRole('status')).toContainText('removed');
    await expect(section.getByText('No authenticator app is set up.')).toBeVisible();
  });
});

test('forgot password: the e-mailed link leads to a new password, which then logs in', async ({ page }) => {
  if (!forgetful) throw new Error('beforeAll made no account');
  const { account, signedUpAt } = forgetful;
  const newPassword = 'Fresh-Bobbin-7261';
  // Wait out the e-mail interval since the sign-up e-mail (see `forgetful`).
  const wait = signedUpAt + 61_000 - Date.now();
  test.setTimeout(60_000 + Math.max(wait, 0));
  if (wait > 0) await page.waitForTimeout(wait);

  await test.step('ask for the link', async () => {
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await expect(page).toHaveTitle('Bobbin - Forgot Password');
    await page.getByLabel('E-mail').fill(account.email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await expect(page.getByRole('status')).toContainText('If an account uses that address');
  });

  await test.step('the link signs the person in on the new-password page', async () => {
    await page.goto(await mailedLink(page.request, account.email, 'recovery'));
    await expect(page).toHaveURL(/\/auth\/reset$/);
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Repeat the new password').fill(newPassword);
    await page.getByRole('button', { name: 'Save the new password' }).click();
    await expect(page.getByRole('status')).toContainText('Your new password is saved');
  });

  await test.step('the old password no longer works, the new one does', async () => {
    await signOutHere(page);
    const old = await page.request.post('/auth/v1/token?grant_type=password', { data: account });
    expect(old.status()).toBe(400);
    await page.goto('/login');
    await fillLogin(page, { email: account.email, password: newPassword });
    await expect(accountButton(page)).toBeVisible();
    await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/dashboard$/);
  });
});
