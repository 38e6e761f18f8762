import type { Page } from '@playwright/test';

import { PASSWORD, asTheApp, fillLogin, mailedLink, uniqueEmail } from '../fixtures/accounts';
import { expect, test } from '../fixtures/test';
import { invite, inviteLink, logIn, newAccount, secondBrowser } from '../fixtures/teams';

// Teams, members and invites against the development server (serve.sh). Every test makes its
// own accounts: they rename, delete and join teams, which would disturb a shared account.

/** The header's team switcher. */
const switcher = (page: Page) => page.getByRole('combobox', { name: 'Team', exact: true });
const chosenTeam = (page: Page) => switcher(page).locator('option:checked');

test("a new account gets '{email}'s Team', which its owner renames; the chosen team survives a reload", async ({ page }, testInfo) => {
  const owner = await newAccount(testInfo, 'team-owner');

  await test.step("the first sign-in makes '{email}'s Team', current on the dashboard", async () => {
    await logIn(page, owner);
    await page.goto('/dashboard');
    await expect(page).toHaveTitle('Bobbin - Dashboard');
    await expect(chosenTeam(page)).toHaveText(`${owner.email}'s Team`);
    await expect(page.getByRole('region', { name: 'Your team' })).toContainText(`${owner.email}'s Team`);
  });

  await test.step('rename it on the team page; the header follows', async () => {
    await page.getByRole('link', { name: 'Manage the team' }).click();
    await expect(page).toHaveURL(/\/team$/);
    const section = page.getByRole('region', { name: 'Team name' });
    await section.getByLabel('Name').fill('Thread & Needle Co.');
    await section.getByRole('button', { name: 'Rename' }).click();
    await expect(section.getByRole('status')).toHaveText('The team is now called Thread & Needle Co.');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Thread & Needle Co.');
    await expect(chosenTeam(page)).toHaveText('Thread & Needle Co.');
  });

  await test.step('switch to a second team; it stays chosen after a reload, even without the local copy', async () => {
    const created = await page.request.post('/api/v2/teams', { data: { name: 'Second Shop' }, headers: asTheApp() });
    expect(created.status()).toBe(201);
    await page.reload();
    await expect(switcher(page).getByRole('option', { name: 'Second Shop' })).toBeAttached();
    const saved = page.waitForResponse((response) => response.url().endsWith('/api/v2/users/me/default-team') && response.ok());
    await switcher(page).selectOption({ label: 'Second Shop' });
    await saved;
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Second Shop');

    await page.reload();
    await expect(chosenTeam(page)).toHaveText('Second Shop');
    // The server's default, not only the browser's copy of the team store.
    await page.evaluate(() => localStorage.clear());
    await page.reload();
    await expect(chosenTeam(page)).toHaveText('Second Shop');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Second Shop');
  });
});

test('an invite by e-mail: the mailed link, through the login, puts the person in the team; the owner makes them a viewer, who cannot invite', async ({
  page,
  browser,
}, testInfo) => {
  // Two accounts, an e-mail and a sign-in through the link: on a 2-core machine busy with other
  // work it has taken more than the usual 30 s.
  test.slow();
  const owner = await newAccount(testInfo, 'inviter');
  const guest = await newAccount(testInfo, 'invitee');
  const teamName = `${owner.email}'s Team`;
  await logIn(page, owner);

  await test.step('the owner invites the second person as a member', async () => {
    await invite(page, guest.email, 'Member');
  });

  const second = await secondBrowser(browser, testInfo);
  await test.step('the second person opens the mailed link, logs in, and lands in the team', async () => {
    await second.page.goto(await inviteLink(page, guest.email));
    await expect(second.page).toHaveURL(/\/login\?redirect=%2Fprofile%2Finvites%2Faccept%3Ftoken%3D/);
    await fillLogin(second.page, guest);
    await expect(second.page).toHaveURL(/\/team$/);
    await expect(second.page.getByRole('heading', { level: 1 })).toHaveText(teamName);
    await expect(chosenTeam(second.page)).toHaveText(teamName);
    await expect(second.page.getByText('Your role: Member')).toBeVisible();
  });

  await test.step('the owner sees the new member, the invite no longer pending, and makes them a viewer', async () => {
    await page.reload();
    await expect(page.getByRole('region', { name: 'Pending invites' })).toContainText('No invites are waiting for an answer.');
    await page.getByRole('combobox', { name: `Role of ${guest.email}` }).selectOption({ label: 'Viewer' });
    await expect(page.getByText(`${guest.email} is now viewer.`)).toBeVisible();
  });

  await test.step('the viewer sees the team but no invite form, and the server refuses an invite too', async () => {
    await second.page.reload();
    await expect(second.page.getByText('Your role: Viewer')).toBeVisible();
    await expect(second.page.getByRole('region', { name: 'Members' })).toContainText(owner.email);
    await expect(second.page.getByRole('region', { name: 'Invite someone' })).toHaveCount(0);
    await expect(second.page.getByRole('region', { name: 'Team name' })).toHaveCount(0);
    await expect(second.page.getByText('Only admins and owners can change the team settings.')).toBeVisible();
    const teamId = await second.page.evaluate(
      () =>
        (JSON.parse(localStorage.getItem('bobbin:team-store') ?? '{}') as { state?: { currentTeamPublicId?: string } }).state
          ?.currentTeamPublicId,
    );
    const refused = await second.page.request.post(`/api/v2/teams/${teamId}/invites`, {
      data: { email: 'someone@example.com', role: 'member' },
      headers: asTheApp(),
    });
    expect(refused.status()).toBe(403);
  });
  await second.close();
});

test('someone without an account signs up from the invite link and lands in the team, with no team of their own', async ({
  page,
  browser,
}, testInfo) => {
  const owner = await newAccount(testInfo, 'signup-owner');
  const newcomer = uniqueEmail('newcomer');
  await logIn(page, owner);
  await invite(page, newcomer, 'Member');

  const second = await secondBrowser(browser, testInfo);
  await test.step('the link asks for a login; they create an account instead', async () => {
    await second.page.goto(await inviteLink(page, newcomer));
    await expect(second.page).toHaveURL(/\/login\?redirect=/);
    await second.page.getByRole('link', { name: 'Create an account' }).click();
    await expect(second.page).toHaveURL(/\/register\?redirect=%2Fprofile%2Finvites%2Faccept/);
    await second.page.getByLabel('E-mail').fill(newcomer);
    await second.page.getByLabel('Password').fill(PASSWORD);
    await second.page.getByRole('button', { name: 'Create account' }).click();
    await expect(second.page.getByRole('status')).toContainText('Check your e-mail');
  });

  await test.step('the confirmation e-mail leads back to the invite, which puts them in the team', async () => {
    await second.page.goto(await mailedLink(page.request, newcomer));
    await expect(second.page).toHaveURL(/\/team$/);
    await expect(second.page.getByRole('heading', { level: 1 })).toHaveText(`${owner.email}'s Team`);
    await expect(second.page.getByText('Your role: Member')).toBeVisible();
    await second.page.reload();
    await expect(switcher(second.page).getByRole('option')).toHaveText([`${owner.email}'s Team`]);
  });
  await second.close();
});

test('the pending-invites guard sends an invited person to My Invites, where Accept joins the team', async ({
  page,
  browser,
}, testInfo) => {
  const owner = await newAccount(testInfo, 'guard-owner');
  const guest = await newAccount(testInfo, 'guard-guest');
  await logIn(page, owner);
  await invite(page, guest.email, 'Admin');

  const second = await secondBrowser(browser, testInfo);
  await test.step('logging in, the person is sent to /profile?tab=invites', async () => {
    await second.page.goto('/login');
    await fillLogin(second.page, guest);
    await expect(second.page).toHaveURL(/\/profile\?tab=invites$/);
    await expect(second.page.getByRole('tab', { name: 'My Invites', selected: true })).toBeVisible();
  });

  await test.step("Accept: the toast 'Invite accepted!', and the team is current", async () => {
    await second.page.getByRole('button', { name: `Accept the invite to ${owner.email}'s Team` }).click();
    await expect(second.page.getByText('Invite accepted!')).toBeVisible();
    await expect(chosenTeam(second.page)).toHaveText(`${owner.email}'s Team`);
    await expect(second.page.getByText('You have no pending invites.')).toBeVisible();
  });

  await test.step('the guard runs once per session: other pages open normally', async () => {
    await second.page.goto('/dashboard');
    await expect(second.page).toHaveURL(/\/dashboard$/);
  });
  await second.close();
});

test('an owner deletes a team after a confirmation that names it', async ({ page }, testInfo) => {
  const owner = await newAccount(testInfo, 'deleter');
  await logIn(page, owner);
  await page.goto('/dashboard');
  await expect(chosenTeam(page)).toHaveText(`${owner.email}'s Team`);
  expect((await page.request.post('/api/v2/teams', { data: { name: 'Doomed Designs' }, headers: asTheApp() })).status()).toBe(201);

  await page.goto('/team');
  await page.reload();
  await switcher(page).selectOption({ label: 'Doomed Designs' });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Doomed Designs');

  await page.getByRole('button', { name: 'Delete team' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete Doomed Designs?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Doomed Designs');

  await page.getByRole('button', { name: 'Delete team' }).click();
  await page.getByRole('dialog', { name: 'Delete Doomed Designs?' }).getByRole('button', { name: 'Delete team' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText('Doomed Designs was deleted.')).toBeVisible();
  await expect(switcher(page).getByRole('option', { name: 'Doomed Designs' })).toHaveCount(0);
  await expect(page.getByText('No team is selected.', { exact: false })).toBeVisible();
  expect((await page.request.get('/api/v2/teams')).ok()).toBe(true);
  const { teams } = (await (await page.request.get('/api/v2/teams')).json()) as { teams: { name: string }[] };
  expect(teams.map((team) => team.name)).toEqual([`${owner.email}'s Team`]);
});

test('a team picked while the app starts stays current: the start-up does not switch back to the default', async ({ page }, testInfo) => {
  const owner = await newAccount(testInfo, 'picker');
  await logIn(page, owner);
  expect((await page.request.post('/api/v2/teams', { data: { name: 'Picked Patches' }, headers: asTheApp() })).status()).toBe(201);
  await page.goto('/team');
  await expect(switcher(page).getByRole('option', { name: 'Picked Patches' })).toHaveCount(1);

  // A slow connection: the switcher shows the teams kept from this visit at once, and the
  // start-up's read of the list arrives after the person has picked.
  await page.route('**/api/v2/teams', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
  const listRead = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/v2/teams');
  await page.reload();
  await switcher(page).selectOption({ label: 'Picked Patches' });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Picked Patches');
  await listRead;
  // The start-up goes on from the list at once; what it would switch to shows within a frame or two.
  await page.waitForTimeout(500);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Picked Patches');
  await expect(chosenTeam(page)).toHaveText('Picked Patches');
});

test('the team page works at 375 px wide', async ({ page }, testInfo) => {
  const owner = await newAccount(testInfo, 'phone');
  await page.setViewportSize({ width: 375, height: 740 });
  await logIn(page, owner);
  await page.goto('/team');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${owner.email}'s Team`);
  await expect(switcher(page)).toBeVisible();
  // Nothing wider than the screen.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
