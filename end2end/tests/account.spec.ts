import { readFile } from 'node:fs/promises';

import { request as apiRequest } from '@playwright/test';

import { asTheApp } from '../fixtures/accounts';
import { expect, test } from '../fixtures/test';
import { inviteLink, logIn, newAccount } from '../fixtures/teams';

// A person's account and data (docs/behaviour.md, "Your account and your data"), against the
// development server (serve.sh). Every test makes its own accounts: they end them.

test.describe(() => {
  // After the deletion the official client still asks the server to end the session, which is
  // already gone: the 403 it expects (and ignores) is logged by the browser as a failed request.
  test.use({ allowFailedRequests: true });

  test('at 375 px a person downloads their data, is told which team to hand over, then deletes their account and lands on the home page', async ({
    page,
  }, testInfo) => {
    const ada = await newAccount(testInfo, 'leaving');
    await page.setViewportSize({ width: 375, height: 740 });
    await logIn(page, ada);
    await page.goto('/dashboard');
    const shop = await page.request.post('/api/v2/teams', { data: { name: 'Hoop Shop' }, headers: asTheApp() });
    expect(shop.status()).toBe(201);
    const shopId = ((await shop.json()) as { team: { public_id: string } }).team.public_id;

    await test.step('a teammate joins the team Ada alone owns', async () => {
      const bob = await newAccount(testInfo, 'staying');
      const invited = await page.request.post(`/api/v2/teams/${shopId}/invites`, {
        data: { email: bob.email, role: 'member' },
        headers: asTheApp(),
      });
      expect(invited.status()).toBe(201);
      const token = new URL(await inviteLink(page, bob.email)).searchParams.get('token');
      const api = await apiRequest.newContext({ baseURL: testInfo.project.use.baseURL });
      const session = await api.post('/auth/v1/token?grant_type=password', { data: bob });
      const { access_token } = (await session.json()) as { access_token: string };
      const accepted = await api.post('/api/v2/invites/accept', {
        data: { token },
        headers: { authorization: `Bearer ${access_token}` },
      });
      expect(accepted.status()).toBe(200);
      await api.dispose();
    });

    await page.goto('/profile');
    await test.step('"Download my data" saves her data as JSON', async () => {
      const downloading = page.waitForEvent('download');
      await page.getByRole('link', { name: 'Download my data' }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toBe('bobbin-my-data.json');
      const data = JSON.parse(await readFile(await download.path(), 'utf8')) as {
        account: { email: string };
        memberships: { team: { name: string }; role: string }[];
      };
      expect(data.account.email).toBe(ada.email);
      expect(data.memberships.map((membership) => membership.team.name)).toContain('Hoop Shop');
    });

    const section = page.getByRole('region', { name: 'Delete your account' });
    await test.step('the team she alone owns with a member blocks the deletion, named with a link', async () => {
      await expect(section.getByText('First hand over or delete these teams.')).toBeVisible();
      await expect(section.getByRole('link', { name: 'Hoop Shop' })).toBeVisible();
      await expect(section.getByRole('button', { name: 'Delete my account' })).toHaveCount(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      await section.screenshot({ path: testInfo.outputPath('delete-account-blocked-375.png') });
    });

    await test.step('the link opens the team, which she deletes', async () => {
      await section.getByRole('link', { name: 'Hoop Shop' }).click();
      await expect(page).toHaveURL(/\/team$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hoop Shop');
      await page.getByRole('button', { name: 'Delete team' }).click();
      await page.getByRole('dialog', { name: 'Delete Hoop Shop?' }).getByRole('button', { name: 'Delete team' }).click();
      await expect(page).toHaveURL(/\/dashboard$/);
    });

    await test.step('with her password and a final confirmation her account goes; she is signed out on the home page', async () => {
      await page.goto('/profile');
      await expect(section.getByText(`${ada.email}'s Team`)).toBeVisible();
      await section.getByLabel('Your password').fill(ada.password);
      await section.getByRole('button', { name: 'Delete my account' }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
      await expect(dialog).toBeVisible();
      await page.screenshot({ path: testInfo.outputPath('delete-account-confirm-375.png') });
      await dialog.getByRole('button', { name: 'Delete my account' }).click();
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByRole('link', { name: 'Log in' }).first()).toBeVisible();
      expect((await page.request.get('/api/v2/users/me')).status()).toBe(401);
      const signIn = await page.request.post('/auth/v1/token?grant_type=password', { data: { email: ada.email, password: ada.password } });
      expect(signIn.status()).toBe(400);
    });
  });
});

test("an admin downloads the team's data as one archive", async ({ page }, testInfo) => {
  const owner = await newAccount(testInfo, 'archiver');
  await logIn(page, owner);
  await page.goto('/team');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${owner.email}'s Team`);
  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: "Download the team's data" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^bobbin-team-[A-Za-z0-9]{16}-\d{4}-\d{2}-\d{2}\.zip$/);
  const bytes = await readFile(await download.path());
  // A zip archive starts with its local file header's signature.
  expect(bytes.subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
});
