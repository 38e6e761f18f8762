import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import type { Page } from '@playwright/test';

import { asTheApp } from '../fixtures/accounts';
import { expect, test } from '../fixtures/test';

// The pricing calculator of this worker's personal team (the account owns it), against the
// development server. Prices are computed in the page by the WebAssembly core.
test.use({ signedIn: true });

/** The sample designs (testdata/designs of the repository). */
const designs = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../testdata/designs');
/** Crafted design files (fuzz/seeds of the repository): many blocks, long repeated names. */
const crafted = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fuzz/seeds');

/** The public id of the signed-in person's first team (a new account has one: its own). */
async function firstTeam(page: Page): Promise<string> {
  const teams = (await (await page.request.get('/api/v2/teams')).json()) as { teams: { public_id: string }[] };
  return teams.teams[0]?.public_id ?? '';
}

/** The team back on the default rates in euros: no currency, stitch rate or price list set. */
async function resetPricing(page: Page, team: string) {
  const reset = await page.request.patch(`/api/v2/teams/${team}/settings`, {
    data: { currency: null, default_stitch_rate: null, pricing: null },
    headers: asTheApp(),
  });
  expect(reset.status(), await reset.text()).toBe(200);
}

const perPiece = (page: Page) => page.getByTestId('price-per-piece');
const total = (page: Page) => page.getByTestId('price-total');
const job = (page: Page) => page.getByRole('region', { name: 'The job' });

test('a design file prices a job, which is saved and reopened from its link', async ({ page }) => {
  await resetPricing(page, await firstTeam(page));
  await page.goto('/calculators');
  await expect(page).toHaveTitle('Bobbin - Calculators');
  await page.getByRole('link', { name: 'Pricing Calculator' }).click();
  await expect(page).toHaveTitle('Bobbin - Pricing Calculator');

  await test.step('drop star.dst on the page: it is read there and its figures fill the inputs', async () => {
    // A drag and drop as the browser delivers one: a DataTransfer holding the file, dropped on
    // the drop zone (its hint is inside it).
    const bytes = [...(await readFile(path.join(designs, 'star.dst')))];
    const dataTransfer = await page.evaluateHandle((data) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(data)], 'star.dst'));
      return transfer;
    }, bytes);
    const zone = job(page).getByText(/^Drop a DST, PES, JEF, EXP or VP3 file here/);
    await zone.dispatchEvent('dragover', { dataTransfer });
    await zone.dispatchEvent('drop', { dataTransfer });
    const figures = page.getByLabel('Design star.dst');
    await expect(figures).toContainText('Stitches2,550');
    await expect(figures).toContainText('FormatDST');
    await expect(job(page).getByLabel('Stitches', { exact: true })).toHaveValue('2550');
    await expect(job(page).getByLabel('Colours', { exact: true })).toHaveValue('2');
    await expect(page.getByRole('img', { name: "Preview of the design's stitches" })).toBeVisible();
  });

  await test.step('one piece on the default rates: 5,000 minimum stitches, materials, set-up', async () => {
    // The thread is the design's by the usage model: 20.77 m a piece, top and bobbin.
    await expect(page.getByText(/^Thread: 20\.77 m a piece, top and bobbin/)).toBeVisible();
    await expect(perPiece(page)).toHaveText('€30.30');
    await expect(total(page)).toHaveText('€30.30');
  });

  await test.step('twelve pieces take the 10% break and share the set-up fee', async () => {
    await job(page).getByLabel('Quantity').fill('12');
    await expect(perPiece(page)).toHaveText('€6.88');
    await expect(total(page)).toHaveText('€82.56');
    await expect(page.getByText(/Billable stitches 5,000, at €0\.90 per 1,000 stitches/)).toBeVisible();
  });

  const name = `Star ${Math.random().toString(36).slice(2, 8)}`;
  await test.step('save the quote and find it in the list', async () => {
    const form = page.getByRole('region', { name: 'Save quote' });
    await form.getByLabel('Name').fill(name);
    await form.getByRole('button', { name: 'Save quote' }).click();
    const quotes = page.getByRole('region', { name: 'Saved quotes' });
    await quotes.getByLabel('Search quotes').fill(name);
    await expect(quotes.getByText(name)).toBeVisible();
    await expect(quotes.getByRole('listitem').filter({ hasText: name })).toContainText('€82.56');
  });

  await test.step('reopen it, and reload: the link brings back the same figures', async () => {
    await page.getByRole('link', { name: `Reopen ${name}` }).click();
    await expect(page).toHaveURL(/\/calculators\/pricing\?quote=/);
    await page.reload();
    await expect(page.getByText(/uses the rates saved with the quote/)).toBeVisible();
    await expect(job(page).getByLabel('Stitches', { exact: true })).toHaveValue('2550');
    await expect(job(page).getByLabel('Quantity')).toHaveValue('12');
    await expect(perPiece(page)).toHaveText('€6.88');
    await expect(total(page)).toHaveText('€82.56');
    await expect(page.getByLabel('Design star.dst')).toContainText('Stitches2,550');
  });
});

test("an owner's price list is saved to the team and prices every job after", async ({ page }) => {
  const team = await firstTeam(page);
  await resetPricing(page, team);
  await page.goto('/calculators/pricing');
  await job(page).getByLabel('Stitches', { exact: true }).fill('2550');
  await job(page).getByLabel('Colours', { exact: true }).fill('2');
  await expect(perPiece(page)).toHaveText('€30.26');

  await test.step('a set-up fee of 10.00 instead of 25.00 takes 15.00 off one piece', async () => {
    const list = page.getByRole('region', { name: 'Edit price list' });
    await list.getByLabel('Set-up fee (per job)').fill('10');
    await list.getByRole('button', { name: 'Save price list' }).click();
    await expect(list.getByRole('status')).toHaveText('The price list is saved.');
    await expect(perPiece(page)).toHaveText('€15.26');
  });

  await test.step('the team keeps it: after a reload the same job costs the same', async () => {
    await page.reload();
    await job(page).getByLabel('Stitches', { exact: true }).fill('2550');
    await job(page).getByLabel('Colours', { exact: true }).fill('2');
    await expect(perPiece(page)).toHaveText('€15.26');
    const settings = (await (await page.request.get(`/api/v2/teams/${team}/settings`)).json()) as {
      settings: { default_stitch_rate?: number; pricing?: { setup_fee?: string; price_per_thousand?: string } };
    };
    expect(settings.settings.default_stitch_rate).toBe(1);
    expect(Number(settings.settings.pricing?.setup_fee)).toBe(10);
    expect(settings.settings.pricing?.price_per_thousand).toBeUndefined();
  });

  await resetPricing(page, team);
});

test.describe('offline', () => {
  // A request the app makes after the network is gone (a refetch, say) fails as it would for a
  // person offline; the price must not need it.
  test.use({ allowFailedRequests: true });

  test('the price is still computed with the API unreachable', async ({ page }) => {
    await resetPricing(page, await firstTeam(page));
    await page.goto('/calculators/pricing');
    await expect(job(page).getByLabel('Stitches', { exact: true })).toBeVisible();
    // The team's settings have arrived (the default set-up fee: nothing set).
    const priceList = page.getByRole('region', { name: 'Edit price list' });
    await expect(priceList.getByLabel('Set-up fee (per job)')).toHaveValue('25');
    // The page has loaded what it loads; from now on every API call fails.
    await page.waitForLoadState('networkidle');
    await page.route('**/api/**', (route) => route.abort());
    await job(page).getByLabel('Stitches', { exact: true }).fill('2550');
    await job(page).getByLabel('Colours', { exact: true }).fill('2');
    await job(page).getByLabel('Quantity').fill('12');
    // The team's settings as the browser kept them (none: the default rates, in euros).
    await expect(perPiece(page)).toHaveText('€6.85');
    await expect(total(page)).toHaveText('€82.20');
  });
});

test('on a 375 px phone the calculator does not scroll sideways', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto('/calculators/pricing');
  await job(page).getByLabel('Design file').setInputFiles(path.join(designs, 'star.dst'));
  await expect(perPiece(page)).toBeVisible();
  await page.waitForLoadState('networkidle');
  const width = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(width.scroll).toBeLessThanOrEqual(width.client);
});

// programstitch-v5.pes sews 8 colour blocks with 3 threads: the machine is set up with 3 spools,
// and the extra-colour fee charges for those (docs/behaviour.md, "Design files").
test('on a phone a design lists the threads it needs, named, with the sewing sequence', async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await resetPricing(page, await firstTeam(page));
  await page.goto('/calculators/pricing');
  await job(page).getByLabel('Design file').setInputFiles(path.join(designs, 'programstitch-v5.pes'));

  const threads = page.getByRole('list', { name: 'Threads needed' }).getByRole('listitem');
  await expect(threads).toHaveCount(3);
  await expect(threads.locator('.design-threads__name')).toHaveText(['Black', 'White', 'Red']);
  await expect(threads.first()).toContainText('Blocks 1, 3, 6, 8');
  await expect(page.getByRole('list', { name: 'Sewing sequence' }).getByRole('listitem')).toHaveCount(8);
  await expect(job(page).getByLabel('Colours', { exact: true })).toHaveValue('3');
  // Each says whether the team has it (the worker's team may own threads from other tests).
  for (const thread of await threads.all()) {
    await expect(thread).toContainText(/In stock: |Nothing close in stock \(closest: |Not in stock: we own no thread yet\./);
  }
  await page.locator('.design-view').screenshot({ path: testInfo.outputPath('design-threads-375.png') });
  const width = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(width.scroll).toBeLessThanOrEqual(width.client);
});

// A file is read by the core in a Web Worker, so the page never freezes on a large or crafted
// one; the threads a design needs are looked up in the inventory in one request
// (docs/behaviour.md, "Design files").
test('a design is read in a Web Worker and its threads are looked up in one request', async ({ page }) => {
  await page.goto('/calculators/pricing');
  await expect(job(page).getByLabel('Design file')).toBeVisible();
  const workers: string[] = [];
  page.on('worker', (worker) => workers.push(new URL(worker.url()).pathname));
  const lookups: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    const path = `${url.pathname}${url.search}`;
    if (path.includes('/threads') && path.includes('closest')) lookups.push(path);
  });

  await test.step('programstitch-v5.pes: 3 threads, their stock asked in one request', async () => {
    await job(page).getByLabel('Design file').setInputFiles(path.join(designs, 'programstitch-v5.pes'));
    const threads = page.getByRole('list', { name: 'Threads needed' }).getByRole('listitem');
    await expect(threads).toHaveCount(3);
    for (const thread of await threads.all()) {
      await expect(thread).toContainText(/In stock: |Nothing close in stock \(closest: |Not in stock: we own no thread yet\./);
    }
    expect(workers).toEqual([expect.stringMatching(/^\/assets\/design-worker-[A-Z0-9]+\.js$/)]);
    expect(lookups).toEqual([expect.stringMatching(/\/threads\/closest\?colours=000000,ED171F,F0F0F0$/)]);
  });

  await test.step('a crafted VP3 claiming 65,535 colour blocks is refused in words, by the same worker', async () => {
    await job(page).getByLabel('Design file').setInputFiles(path.join(crafted, 'vp3/65535-blocks-claimed.vp3'));
    await expect(job(page).getByRole('alert')).toHaveText(
      'This design has more than 1,000 colour blocks; designs with that many colour changes are refused.',
    );
    await expect(page.getByRole('list', { name: 'Threads needed' })).toHaveCount(0);
  });

  await test.step('a VP3 of 1,000 blocks and 256 threads (the caps) is read, its 256 colours asked in one request', async () => {
    await job(page).getByLabel('Design file').setInputFiles(path.join(crafted, 'vp3/at-the-caps.vp3'));
    await expect(page.getByLabel('Design at-the-caps.vp3')).toContainText('Colour blocks1,000');
    await expect(page.getByRole('list', { name: 'Threads needed' }).getByRole('listitem')).toHaveCount(256);
    await expect(page.getByText('Looking in the inventory…')).toHaveCount(0);
    expect(workers).toHaveLength(1);
    expect(lookups).toHaveLength(2);
  });
});

test('the machine picker is wide enough to read the machine it shows', async ({ page }) => {
  const team = await firstTeam(page);
  const name = 'Tajima TMEZ-SC1206 six-head';
  const created = await page.request.post(`/api/v2/teams/${team}/machines`, {
    data: { name, heads: 6, typical_spm: 850 },
    headers: asTheApp(),
  });
  expect(created.status(), await created.text()).toBe(201);
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/calculators/pricing');
    const picker = job(page).getByLabel('Machine');
    await picker.selectOption({ label: name });
    await expect(job(page).getByText('6 heads, 850 stitches a minute')).toBeVisible();
    // The chosen option's text, in the picker's font, fits inside it beside the arrow.
    const fits = await picker.evaluate((select: HTMLSelectElement) => {
      const style = getComputedStyle(select);
      const context = document.createElement('canvas').getContext('2d');
      if (!context) throw new Error('no 2D canvas');
      context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const text = context.measureText(select.value === '' ? '' : select.options[select.selectedIndex].text).width;
      const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return { text, room };
    });
    expect(fits.text, `at ${width} px`).toBeLessThanOrEqual(fits.room);
  }
});
