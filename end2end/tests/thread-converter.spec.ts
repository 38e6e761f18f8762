import { readFile } from 'node:fs/promises';

import type { Locator, Page } from '@playwright/test';

import { expect, test } from '../fixtures/test';

// The converter needs a login, like every page but the landing and sign-in pages.
test.use({ signedIn: true });

/**
 * What every signed-in page loads for its header, whatever the page: the profile, the pending
 * invites (the guard), the teams and the current team's settings (the team switcher and store).
 */
const SHELL_CALLS = [/^\/api\/v2\/users\/me(\/invites)?$/, /^\/api\/v2\/teams$/, /^\/api\/v2\/teams\/[^/]+\/(members\/)?settings$/];

/**
 * Fails any other request to the API and records it: the converter must never need the server.
 */
async function blockTheApi(page: Page): Promise<string[]> {
  const apiRequests: string[] = [];
  await page.route('**/api/**', (route) => {
    const { pathname } = new URL(route.request().url());
    if (SHELL_CALLS.some((call) => call.test(pathname))) return route.continue();
    apiRequests.push(route.request().url());
    return route.abort();
  });
  return apiRequests;
}

test('a thread converts to ranked matches in other lines with the API blocked', async ({ page }) => {
  const apiRequests = await blockTheApi(page);

  await page.goto('/tools/thread-converter');
  await expect(page).toHaveTitle('Bobbin - Thread Converter');

  const search = page.getByRole('combobox', { name: 'Code or colour name' });
  const results = page.getByRole('listbox', { name: 'Matching threads' });

  await test.step('search a thread by code within a line and choose it', async () => {
    await page.getByLabel('In line').selectOption({ label: 'Isacord Polyester' });
    // Searched in all lines, 1902 is a code in several (Mettler Poly Sheen's is a Poinsettia too):
    // the line must hold before the search, and the option is named in full.
    await expect(page.getByLabel('In line')).toHaveValue('isacord-polyester');
    await search.fill('1902');
    await results.getByRole('option', { name: '1902 Poinsettia Isacord Polyester', exact: true }).click();
    await expect(search).toHaveValue('1902');
    await expect(search).toHaveAttribute('aria-expanded', 'false');
  });

  await test.step('see matches per target line, best first, with distance and label', async () => {
    await expect(page).toHaveURL(/thread=isacord-polyester%3A1902|thread=isacord-polyester:1902/);
    const polyneon = page.getByRole('region', { name: 'Madeira Polyneon' });
    await expect(polyneon.getByRole('listitem')).toHaveCount(3);
    const first = polyneon.getByRole('listitem').first();
    await expect(first.getByText('Best match')).toBeVisible();
    await expect(polyneon.getByText('Best match')).toHaveCount(1);
    await expect(first).toContainText(/(Indistinguishable|Close|Similar|Poor match) ΔE \d+\.\d/);
    const distances = await polyneon
      .locator('.match-badge__delta')
      .allTextContents()
      .then((texts) => texts.map((text) => Number(text.replace('ΔE ', ''))));
    expect([...distances].sort((a, b) => a - b)).toEqual(distances);
    await expect(page.getByRole('region', { name: 'Sulky Rayon' })).toBeVisible();
  });

  await test.step('choose a thread with the keyboard only', async () => {
    // Still searching Isacord Polyester, whose closest code to 0015 is 0015 White.
    await expect(page.getByLabel('In line')).toHaveValue('isacord-polyester');
    await search.focus();
    // The list is closed: Escape empties the search.
    await page.keyboard.press('Escape');
    await expect(search).toHaveValue('');
    await page.keyboard.type('0015');
    await expect(search).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('ArrowDown');
    const white = results.getByRole('option', { name: '0015 White Isacord Polyester', exact: true });
    await expect(white).toHaveAttribute('aria-selected', 'true');
    await expect(search).toHaveAttribute('aria-activedescendant', (await white.getAttribute('id')) ?? '');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/thread=isacord-polyester%3A0015|thread=isacord-polyester:0015/);
    await expect(results).toBeHidden();
    await expect(search).toBeFocused();
  });

  await test.step('a typed hex colour converts too, and a bad one is explained', async () => {
    await page.getByLabel('Hex colour').fill('#1F3A9');
    await expect(page.getByText('Use six hex digits, like #C8102E.')).toBeVisible();
    await page.getByLabel('Hex colour').fill('#1F3A93');
    await expect(page).toHaveURL(/hex=1F3A93/);
    await expect(page.getByText('#1F3A93', { exact: true })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Isacord Polyester' }).getByRole('listitem')).toHaveCount(3);
  });

  await test.step('target lines can be changed', async () => {
    await page.getByLabel('Filter lines').fill('Gunold');
    await page.getByRole('checkbox', { name: /Gunold Polyester/ }).check();
    await expect(page.getByRole('region', { name: 'Gunold Polyester' })).toBeVisible();
    await page.getByRole('button', { name: 'Remove Sulky Rayon' }).click();
    await expect(page.getByRole('region', { name: 'Sulky Rayon' })).toHaveCount(0);
    await expect(page).toHaveURL(/to=madeira-polyneon%2Cisacord-polyester%2Cgunold-polyester/);
  });

  expect(apiRequests).toEqual([]);
});

test('a pasted list converts to a table and downloads as CSV, with the API blocked', async ({ page }) => {
  const apiRequests = await blockTheApi(page);
  await page.goto('/tools/thread-converter?to=sulky-rayon');

  await page.getByLabel('Codes are from').selectOption({ label: 'Isacord Polyester' });
  await page.getByLabel('Convert to').selectOption({ label: 'Madeira Polyneon' });
  await page.getByLabel('List', { exact: true }).fill('0015\n1902\nnot-a-code\n#1F3A93');
  await page.getByRole('button', { name: 'Convert list' }).click();

  await expect(page.getByRole('status').filter({ hasText: 'rows converted' })).toHaveText('3 of 4 rows converted to Madeira Polyneon.');
  const rows = page.getByRole('table').getByRole('row');
  await expect(rows).toHaveCount(5);
  await expect(rows.nth(3)).toContainText("Isacord Polyester has no thread with the code 'not-a-code'");

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('bobbin-to-madeira-polyneon.csv');
  const csv = await readFile(await download.path(), 'utf8');
  const lines = csv.trim().split('\n');
  expect(lines[0]).toMatch(/^row,input,from_line,from_code/);
  expect(lines).toHaveLength(5);
  expect(lines[1]).toMatch(/^1,0015,Isacord Polyester,0015,White,#FFFFFF,Madeira Polyneon,/);

  expect(apiRequests).toEqual([]);
});

test('the converter works on a phone-sized screen, the results before the explanation', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto('/tools/thread-converter?hex=C8102E');
  await expect(page.getByRole('region', { name: 'Madeira Polyneon' }).getByRole('listitem')).toHaveCount(3);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);

  const top = async (locator: Locator) => (await locator.boundingBox())?.y ?? Number.NaN;
  const results = await top(page.getByRole('region', { name: 'Madeira Polyneon' }));
  const explanation = await top(page.getByText(/Each match shows its CIEDE2000 colour difference/));
  expect(results).toBeLessThan(explanation);
});

test('a shared link opens with its source filled in, and each match is named in bold', async ({ page }) => {
  await page.goto('/tools/thread-converter?thread=madeira-polyneon:1800&to=sulky-rayon,isacord-polyester');
  // The form shows once the thread catalogue (160 KB sent, then decoded) has loaded: on a busy
  // machine, more than the usual 5 s.
  await expect(page.getByLabel('Code or colour name')).toHaveValue('1800', { timeout: 15_000 });
  await expect(page.getByLabel('In line')).toHaveValue('madeira-polyneon');
  // The search shows the code, its list closed until the person types.
  await expect(page.getByRole('combobox', { name: 'Code or colour name' })).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByText('Black Madeira Polyneon 1800', { exact: true })).toBeVisible();

  // docs/behaviour.md, "Blacks, whites and greys": Madeira Polyneon 1800 Black gives Sulky 1005
  // Black and Isacord 0020 Black.
  for (const [line, code] of [
    ['Sulky Rayon', '1005'],
    ['Isacord Polyester', '0020'],
  ] as const) {
    const best = page.getByRole('region', { name: line }).getByRole('listitem').first();
    await expect(best.locator('.match__code')).toHaveText(code);
    const name = best.locator('.match__name');
    await expect(name).toHaveText('Black');
    const style = (locator: Locator) =>
      locator.evaluate((element) => {
        const computed = getComputedStyle(element);
        return { weight: Number(computed.fontWeight), size: Number.parseFloat(computed.fontSize) };
      });
    const [nameStyle, codeStyle] = [await style(name), await style(best.locator('.match__code'))];
    expect(nameStyle.weight).toBeGreaterThanOrEqual(600);
    expect(nameStyle.size).toBeGreaterThan(codeStyle.size);
  }
});
