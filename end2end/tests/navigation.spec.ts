import { type APIRequestContext, type Page, type TestInfo, request as apiRequest } from '@playwright/test';

import { type Account, PASSWORD, createAccount, fillLogin, mailedLink, uniqueEmail } from '../fixtures/accounts';
import { inviteLink, newAccount, secondBrowser } from '../fixtures/teams';
import { expect, test } from '../fixtures/test';

// Finding the way through the app (docs/behaviour.md, "Navigation guards" and "Layouts, loading
// and banners"): where signing in and confirming lead, the header's places and account menu, by
// keyboard and on a phone, the e-mailed code, and the invite link seen signed out.

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const accountNav = (page: Page) => page.getByRole('navigation', { name: 'Account' });
const accountButton = (page: Page) => accountNav(page).getByRole('button', { name: /^Account/ });

/** A session of `account` through the auth API, as another device would hold it. */
async function bearer(request: APIRequestContext, account: Account): Promise<{ authorization: string }> {
  const answer = await request.post('/auth/v1/token?grant_type=password', { data: account });
  expect(answer.status(), await answer.text()).toBe(200);
  return { authorization: `Bearer ${((await answer.json()) as { access_token: string }).access_token}` };
}

/** `owner` (an account with that full name) makes `teamName` and invites `email` to it, through the API. */
async function invitedBy(testInfo: TestInfo, ownerName: string, teamName: string, email: string): Promise<APIRequestContext> {
  const request = await apiRequest.newContext({ baseURL: testInfo.project.use.baseURL });
  const owner = await createAccount(request, 'nav-owner', ownerName);
  const headers = await bearer(request, owner);
  const team = await request.post('/api/v2/teams', { headers, data: { name: teamName } });
  expect(team.status(), await team.text()).toBe(201);
  const teamId = ((await team.json()) as { team: { public_id: string } }).team.public_id;
  const invited = await request.post(`/api/v2/teams/${teamId}/invites`, { headers, data: { email, role: 'member' } });
  expect(invited.status(), await invited.text()).toBe(201);
  return request;
}

/** The six-digit code of the newest e-mail to `email`, waiting for it to arrive. */
async function mailedCode(request: APIRequestContext, email: string): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(async () => {
      const mails = (await (await request.get('/dev/mailbox.json')).json()) as { to: string; text: string }[];
      code = mails.find((mail) => mail.to === email)?.text.match(/enter this code: (\d{6})/)?.[1];
      return code;
    })
    .toBeDefined();
  return code as string;
}

test.describe('where signing in leads', () => {
  test('signing in lands on the dashboard; with ?redirect= on that page instead', async ({ page }) => {
    const account = await createAccount(page.request, 'to-dashboard');
    await page.goto('/login');
    await fillLogin(page, account);
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page).toHaveTitle('Bobbin - Dashboard');

    // Signed out as a fresh browser is: the app left first, so none of its own requests (the
    // invites count, a refresh) meets the missing session while it is still open.
    await page.goto('about:blank');
    await page.context().clearCookies();
    await page.goto('/inventory/machines');
    await expect(page).toHaveURL(/\/login\?redirect=%2Finventory%2Fmachines$/);
    await fillLogin(page, account);
    await expect(page).toHaveURL(/\/inventory\/machines$/);
  });

  test('the confirmation link of a sign-up lands on the dashboard', async ({ page }) => {
    const email = uniqueEmail('confirm-link');
    await page.goto('/register');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByRole('status')).toContainText('Check your e-mail');

    await page.goto(await mailedLink(page.request, email));
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByText('Your e-mail address is confirmed.')).toBeVisible();
    await expect(accountButton(page)).toContainText(email);
  });

  test('the six-digit code from the e-mail, typed on the check-your-e-mail screen, signs the person in', async ({ page }) => {
    const email = uniqueEmail('confirm-code');
    await page.goto('/register');
    await page.getByLabel('Full name (optional)').fill('Grace Hopper');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByRole('status')).toContainText('Check your e-mail');

    await page.getByLabel('Code').fill(await mailedCode(page.request, email));
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(accountButton(page)).toContainText('Grace Hopper');
    // The sign-up's password holds: the code proved the address.
    const signIn = await page.request.post('/auth/v1/token?grant_type=password', { data: { email, password: PASSWORD } });
    expect(signIn.status()).toBe(200);
  });

  test.describe(() => {
    // The service's 403 for the wrong code is logged by the browser as a failed request.
    test.use({ allowFailedRequests: true });

    test('a wrong code is refused where the person looks', async ({ page }) => {
      const email = uniqueEmail('wrong-code');
      await page.goto('/register');
      await page.getByLabel('E-mail').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Create account' }).click();
      const code = await mailedCode(page.request, email);
      await page.getByLabel('Code').fill(code === '000000' ? '111111' : '000000');
      await page.getByRole('button', { name: 'Confirm' }).click();
      await expect(page.getByRole('alert')).toHaveText('Token has expired or is invalid');
      await expect(page).toHaveURL(/\/register$/);
    });
  });
});

test.describe('the header', () => {
  test.use({ signedIn: true });

  test("the app's places and the account menu work by keyboard", async ({ page }) => {
    await page.goto('/dashboard');
    await expect(page).toHaveTitle('Bobbin - Dashboard');
    await expect(mainNav(page).getByRole('link')).toHaveText(['Dashboard', 'Inventory', 'Designs', 'Quotes', 'Jobs', 'Tools', 'Team']);
    await expect(mainNav(page).getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('link', { name: 'Bobbin dashboard' })).toHaveAttribute('href', '/dashboard');

    await test.step('Tab runs through the skip link, the brand, the places, the team, the account', async () => {
      const focused: string[] = [];
      for (let step = 0; step < 11; step += 1) {
        await page.keyboard.press('Tab');
        focused.push(
          await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent ?? ''),
        );
      }
      expect(focused.slice(0, 9)).toEqual([
        'Skip to content',
        'Bobbin dashboard',
        'Dashboard',
        'Inventory',
        'Designs',
        'Quotes',
        'Jobs',
        'Tools',
        'Team',
      ]);
      await expect(accountButton(page)).toBeFocused();
    });

    await test.step('Enter opens the account menu; Tab walks it; Escape closes it and returns to the button', async () => {
      await expect(accountButton(page)).toHaveAttribute('aria-expanded', 'false');
      await expect(accountNav(page).getByRole('link', { name: 'Profile' })).toBeHidden();
      await page.keyboard.press('Enter');
      await expect(accountButton(page)).toHaveAttribute('aria-expanded', 'true');
      await page.keyboard.press('Tab');
      await expect(accountNav(page).getByRole('link', { name: 'Profile' })).toBeFocused();
      await page.keyboard.press('Tab');
      await expect(accountNav(page).getByRole('link', { name: /^My Invites/ })).toBeFocused();
      await page.keyboard.press('Tab');
      await expect(accountNav(page).getByRole('button', { name: 'Sign out' })).toBeFocused();
      await page.keyboard.press('Escape');
      await expect(accountButton(page)).toHaveAttribute('aria-expanded', 'false');
      await expect(accountButton(page)).toBeFocused();
      await expect(accountNav(page).getByRole('link', { name: 'Profile' })).toBeHidden();
    });

    await test.step('Profile from the menu, by keyboard; the menu closes on the way', async () => {
      await page.keyboard.press('Enter');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(/\/profile$/);
      await expect(accountButton(page)).toHaveAttribute('aria-expanded', 'false');
    });

    await test.step('each place, from the header', async () => {
      for (const [place, path, title] of [
        ['Inventory', /\/inventory$/, 'Bobbin - Calculators'],
        ['Quotes', /\/quotes$/, 'Bobbin - Quotes'],
        ['Tools', /\/calculators$/, 'Bobbin - Calculators'],
        ['Team', /\/team$/, /^Bobbin - Team: /],
        ['Dashboard', /\/dashboard$/, 'Bobbin - Dashboard'],
      ] as const) {
        await mainNav(page).getByRole('link', { name: place }).focus();
        await page.keyboard.press('Enter');
        await expect(page).toHaveURL(path);
        await expect(page).toHaveTitle(title);
        await expect(mainNav(page).getByRole('link', { name: place })).toHaveAttribute('aria-current', 'page');
      }
      // The converter and the pricing calculator are tools too.
      await page.goto('/tools/thread-converter');
      await expect(mainNav(page).getByRole('link', { name: 'Tools' })).toHaveAttribute('aria-current', 'page');
    });

    await test.step('a click outside the open menu closes it', async () => {
      await accountButton(page).click();
      await expect(accountNav(page).getByRole('link', { name: 'Profile' })).toBeVisible();
      await page.getByRole('heading', { level: 1 }).click();
      await expect(accountNav(page).getByRole('link', { name: 'Profile' })).toBeHidden();
    });
  });
});

test('the account menu counts the pending invites, and the count goes once they are answered', async ({ page }, testInfo) => {
  const guest = await newAccount(testInfo, 'counted');
  const request = await invitedBy(testInfo, 'Olive Owner', 'Counted Crafts', guest.email);
  await request.dispose();

  await page.goto('/login');
  await fillLogin(page, guest);
  // The pending-invites guard sends them to My Invites first.
  await expect(page).toHaveURL(/\/profile\?tab=invites$/);
  await accountButton(page).click();
  const myInvites = accountNav(page).getByRole('link', { name: /^My Invites/ });
  await expect(myInvites).toHaveAccessibleName('My Invites (1 pending)');
  await expect(accountButton(page)).toHaveAccessibleName(/^Account: .+ \(1 pending invite\)$/);
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Accept the invite to Counted Crafts' }).click();
  await expect(page.getByText('Invite accepted!')).toBeVisible();
  await accountButton(page).click();
  await expect(myInvites).toHaveAccessibleName('My Invites');
  await myInvites.click();
  await expect(page).toHaveURL(/\/profile\?tab=invites$/);
});

test('Sign out is in the account menu, and goes to the home page', async ({ page }) => {
  const account = await createAccount(page.request, 'menu-sign-out');
  await page.goto('/login');
  await fillLogin(page, account);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.waitForLoadState('networkidle');

  await accountButton(page).click();
  await accountNav(page).getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  await expect(accountNav(page).getByRole('link', { name: 'Log in' })).toBeVisible();
  expect((await page.request.get('/api/v2/users/me')).status()).toBe(401);
});

test.describe('on a 375 px phone', () => {
  test.use({ signedIn: true, viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });

  test('the places fold into a Menu button; the account menu is reachable and clear of the breakpoint badge', async ({ page }) => {
    await page.goto('/dashboard');
    const menu = page.getByRole('button', { name: 'Menu' });
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await expect(mainNav(page).getByRole('link', { name: 'Inventory' })).toBeHidden();

    await menu.tap();
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    await mainNav(page).getByRole('link', { name: 'Inventory' }).tap();
    await expect(page).toHaveURL(/\/inventory$/);
    await expect(menu).toHaveAttribute('aria-expanded', 'false');

    await accountButton(page).tap();
    const profile = accountNav(page).getByRole('link', { name: 'Profile' });
    await expect(profile).toBeVisible();
    // The development badge (which breakpoint the window is in) covers neither the button nor the menu.
    const badge = await page.getByTestId('breakpoint-helper').boundingBox();
    for (const target of [accountButton(page), accountNav(page).getByRole('list')]) {
      const box = await target.boundingBox();
      if (!badge || !box) throw new Error('no box');
      const apart =
        badge.x >= box.x + box.width || box.x >= badge.x + badge.width || badge.y >= box.y + box.height || box.y >= badge.y + badge.height;
      expect(apart, 'the breakpoint badge overlaps the account menu').toBe(true);
    }
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await profile.tap();
    await expect(page).toHaveURL(/\/profile$/);
  });
});

test('the invite link tells a signed-out person which team invites them and who, before they sign in or register', async ({
  page,
  browser,
}, testInfo) => {
  const guestEmail = uniqueEmail('preview-guest');
  const request = await invitedBy(testInfo, 'Olive Owner', 'Stitch & Co', guestEmail);
  const link = await inviteLink(page, guestEmail);
  await request.dispose();

  const second = await secondBrowser(browser, testInfo);
  await second.page.goto(link);
  await expect(second.page).toHaveURL(/\/login\?redirect=%2Fprofile%2Finvites%2Faccept%3Ftoken%3D/);
  const invitation = second.page.getByRole('region', { name: 'Your invite' });
  await expect(invitation).toContainText('Olive Owner invites you to join Stitch & Co on Bobbin.');
  await expect(invitation).not.toContainText('@');

  await second.page.getByRole('link', { name: 'Create an account' }).click();
  await expect(second.page).toHaveURL(/\/register\?redirect=%2Fprofile%2Finvites%2Faccept/);
  await expect(second.page.getByRole('region', { name: 'Your invite' })).toContainText(
    'Olive Owner invites you to join Stitch & Co on Bobbin.',
  );
  await second.close();
});

test.describe(() => {
  // The API's 404 for the unknown token is logged by the browser as a failed request.
  test.use({ allowFailedRequests: true });

  test('an invite link with a wrong token says so before the sign-in', async ({ page }) => {
    await page.goto('/profile/invites/accept?token=not-a-real-token');
    await expect(page).toHaveURL(/\/login\?redirect=/);
    await expect(page.getByRole('region', { name: 'Your invite' })).toContainText('This invite link is not valid');
    await expect(page.getByRole('heading', { name: 'Login' })).toBeVisible();
  });
});
