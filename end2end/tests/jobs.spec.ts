// Issue 50, jobs: "the block-by-block mapping of a DST file, and the sheet printed in Chromium (one
// page, with the needle list)"; then the job run to done taking its thread from stock, and the
// job's page on a 375 px phone. A new account each, so its team holds only this test's threads.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import type { Locator, Page } from '@playwright/test';

import { asTheApp } from '../fixtures/accounts';
import { logIn, newAccount } from '../fixtures/teams';
import { expect, test } from '../fixtures/test';

/** The sample designs (testdata/designs of the repository). */
const designs = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../testdata/designs');

async function teamOf(page: Page): Promise<string> {
  const teams = (await (await page.request.get('/api/v2/teams')).json()) as { teams: [{ public_id: string }] };
  return teams.teams[0].public_id;
}

async function post(page: Page, path: string, data: unknown) {
  const answer = await page.request.post(path, { data, headers: asTheApp() });
  expect(answer.status(), await answer.text()).toBe(201);
}

/** The colours the preview image draws, from its SVG. */
async function drawnColours(preview: Locator): Promise<string[]> {
  const src = (await preview.getAttribute('src')) ?? '';
  const svg = decodeURIComponent(src.slice(src.indexOf(',') + 1));
  return [...svg.matchAll(/<g stroke="([^"]+)">/g)].map((match) => match[1].toLowerCase());
}

test('a DST design gets a thread per block, the preview takes their colours, and the run sheet prints on one page with the needles', async ({
  page,
}, testInfo) => {
  const account = await newAccount(testInfo, 'jobs');
  await logIn(page, account);
  const team = await teamOf(page);
  await post(page, `/api/v2/teams/${team}/threads`, { name: 'Poppy red', colour: '#ED171F', quantity: 2, spool_length_m: 1000 });
  await post(page, `/api/v2/teams/${team}/threads`, { name: 'Snow white', colour: '#F0F0F0', quantity: 1, spool_length_m: 1000 });
  await post(page, `/api/v2/teams/${team}/machines`, { name: 'Tajima', heads: 1, needles_per_head: 6, typical_spm: 800 });

  await test.step('put the DST file in the library', async () => {
    await page.goto('/designs');
    await page
      .getByLabel('Design files')
      .setInputFiles([{ name: 'star.dst', mimeType: 'application/octet-stream', buffer: await readFile(path.join(designs, 'star.dst')) }]);
    await expect(page.getByRole('list', { name: 'Uploads' }).getByText('Added', { exact: true })).toBeVisible();
  });

  await test.step('make a job of it on the machine', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Jobs' }).click();
    await expect(page).toHaveTitle('Bobbin - Jobs');
    const form = page.getByRole('region', { name: 'Make a job' });
    await form.getByLabel('Name').fill('Café Rosa caps');
    await form.getByLabel('Customer').fill('Café Rosa');
    await form.getByLabel('Design').selectOption({ label: 'star.dst' });
    await form.getByLabel('Pieces').fill('12');
    await form.getByLabel('Machine').selectOption({ label: 'Tajima (6 needles)' });
    await form.getByRole('button', { name: 'Make the job' }).click();
    await expect(page).toHaveURL(/\/jobs\/[A-Za-z0-9]{16}$/);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Café Rosa caps');
  });

  const preview = page.getByRole('img', { name: 'Preview of star.dst' });
  await test.step('the file stores no colours: a thread is chosen for each block, and the preview takes its colour', async () => {
    const plan = page.getByRole('region', { name: 'Colour plan' });
    await expect(plan).toContainText('This file stores no colours');
    await expect(page.getByRole('region', { name: 'Stock check' })).toContainText('Choose a thread for every colour');
    await expect.poll(() => drawnColours(preview)).toHaveLength(2);
    const neutral = await drawnColours(preview);
    await plan.getByLabel('Thread for Block 1').selectOption({ label: 'Poppy red' });
    await expect.poll(() => drawnColours(preview)).toEqual(['#ed171f', neutral[1]]);
    await plan.getByLabel('Thread for Block 2').selectOption({ label: 'Snow white' });
    await expect.poll(() => drawnColours(preview)).toEqual(['#ed171f', '#f0f0f0']);
    await expect(page.getByRole('region', { name: 'Stock check' })).toContainText('There is enough of every thread.');
    const needles = page.getByRole('region', { name: 'Needles' });
    await expect(needles.getByRole('list', { name: 'Threads on the needles' }).getByRole('listitem')).toHaveCount(2);
    await expect(needles.getByRole('list', { name: 'Threads on the needles' }).getByRole('listitem').first()).toContainText('Poppy red');
    await expect(needles.getByRole('list', { name: 'Threads on the needles' }).getByRole('listitem').nth(1)).toContainText('Snow white');
  });

  await test.step('the run sheet prints on one page, with the needle list', async () => {
    await page.getByRole('link', { name: 'Run sheet' }).click();
    await expect(page).toHaveURL(/\/sheet$/);
    const needles = page.getByRole('table', { name: 'Needles in stitching order' });
    await expect(needles.getByRole('row')).toHaveCount(3);
    await expect(needles.getByRole('row').nth(1)).toContainText('Poppy red');
    await expect(needles.getByRole('row').nth(2)).toContainText('Snow white');
    await expect(page.getByText(/of sewing \(12 runs at 800 stitches a minute\)/)).toBeVisible();
    await expect.poll(() => drawnColours(page.getByRole('img', { name: 'Preview of star.dst' }))).toEqual(['#ed171f', '#f0f0f0']);
    await page.emulateMedia({ media: 'print' });
    await expect(page.getByRole('button', { name: 'Print or save as PDF' })).toBeHidden();
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
    await expect(needles).toBeVisible();
    const pdf = await page.pdf({ format: 'A4', printBackground: true });
    await testInfo.attach('run-sheet.pdf', { body: pdf, contentType: 'application/pdf' });
    const pages = pdf.toString('latin1').match(/\/Type\s*\/Page(?!s)/g) ?? [];
    expect(pages).toHaveLength(1);
    await page.emulateMedia({ media: 'screen' });
  });

  await test.step('run to done: the thread is taken from stock, and the history can give it back', async () => {
    await page.getByRole('link', { name: 'Back to the job' }).click();
    const actions = page.getByRole('region', { name: 'On the machine' });
    await actions.getByRole('button', { name: 'Mark ready' }).click();
    await actions.getByRole('button', { name: 'Start' }).click();
    await actions.getByLabel('Pieces done').fill('2');
    await actions.getByRole('button', { name: 'Record' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Running');
    await expect(page.getByText(/2 of 12 pieces done/)).toBeVisible();
    await actions.getByRole('button', { name: 'All 10 done' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Done');
    const threads = (await (await page.request.get(`/api/v2/teams/${team}/threads`)).json()) as {
      threads: { name: string; quantity: number }[];
    };
    // 12 stars take 8.17 m x 12 + 10% = 107.8 m of red: 0.11 of a 1,000 m spool.
    expect(threads.threads.find((thread) => thread.name === 'Poppy red')?.quantity).toBeCloseTo(1.89, 5);
  });

  await test.step("the inventory's history shows the last pieces, and undoing them gives the thread back", async () => {
    await page.getByRole('link', { name: 'stock history' }).click();
    await expect(page).toHaveTitle('Bobbin - Stock History');
    const changes = page.getByRole('list', { name: 'Stock changes' }).getByRole('listitem').filter({ hasText: 'pieces done' });
    await expect(changes).toHaveCount(2);
    await expect(changes.first()).toContainText('Café Rosa caps: 10 pieces done');
    await expect(changes.first()).toContainText(/Poppy red: -0\.09 spools/);
    await changes.first().getByRole('button', { name: 'Undo Café Rosa caps: 10 pieces done' }).click();
    await page.getByRole('dialog', { name: 'Undo this change?' }).getByRole('button', { name: 'Undo' }).click();
    await expect(changes.first()).toContainText('undone');
    await changes.first().getByRole('link', { name: 'Café Rosa caps: 10 pieces done' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Running');
    await expect(page.getByText(/2 of 12 pieces done/)).toBeVisible();
  });
});

/** A DST file of `blocks` colour blocks, each a zigzag of 40 stitches (0.9 mm across, 0.1 mm
 * down), a colour change between them. */
function dstOfBlocks(blocks: number): Buffer {
  const header = Buffer.alloc(512, 0x20);
  header.write('LA:fifteen      \r', 0, 'latin1');
  const records: number[] = [];
  for (let block = 0; block < blocks; block += 1) {
    if (block > 0) records.push(0x00, 0x00, 0xc3);
    for (let stitch = 0; stitch < 40; stitch += 1) records.push(stitch % 2 === 0 ? 0x84 : 0x88, 0x00, 0x03);
  }
  records.push(0x00, 0x00, 0xf3);
  return Buffer.concat([header, Buffer.from(records)]);
}

test('the run sheet of a 15-colour design prints on one A4 page and one Letter page', async ({ page }, testInfo) => {
  const account = await newAccount(testInfo, 'jobs-sheet');
  await logIn(page, account);
  const team = await teamOf(page);
  await post(page, `/api/v2/teams/${team}/machines`, { name: 'Big head', heads: 1, needles_per_head: 15, typical_spm: 1000 });
  await page.goto('/designs');
  await page
    .getByLabel('Design files')
    .setInputFiles([{ name: 'fifteen.dst', mimeType: 'application/octet-stream', buffer: dstOfBlocks(15) }]);
  await expect(page.getByRole('list', { name: 'Uploads' }).getByText('Added', { exact: true })).toBeVisible();
  await page.goto('/jobs');
  const form = page.getByRole('region', { name: 'Make a job' });
  await form.getByLabel('Name').fill('Fifteen colours');
  await form.getByLabel('Design').selectOption({ label: 'fifteen.dst' });
  await form.getByLabel('Pieces').fill('24');
  await form.getByLabel('Machine').selectOption({ label: 'Big head (15 needles)' });
  await form.getByRole('button', { name: 'Make the job' }).click();
  await expect(page).toHaveURL(/\/jobs\/[A-Za-z0-9]{16}$/);
  await page.getByRole('button', { name: 'Edit details' }).click();
  await page.getByRole('form', { name: 'Job details' }).getByLabel('Notes for the operator').fill('Cap frame; 75/11 needles.');
  await page.getByRole('form', { name: 'Job details' }).getByRole('button', { name: 'Save details' }).click();
  await expect(page.getByText('Cap frame; 75/11 needles.')).toBeVisible();
  await page.getByRole('link', { name: 'Run sheet' }).click();
  const needles = page.getByRole('table', { name: 'Needles in stitching order' });
  await expect(needles.getByRole('row')).toHaveCount(16);
  await expect(needles.getByRole('row').nth(15)).toContainText('Block 15: no thread chosen');
  await expect(page.getByRole('region', { name: 'Notes' })).toContainText('Cap frame; 75/11 needles.');
  await page.emulateMedia({ media: 'print' });
  for (const format of ['A4', 'Letter'] as const) {
    const pdf = await page.pdf({ format, printBackground: true });
    await testInfo.attach(`run-sheet-15-${format}.pdf`, { body: pdf, contentType: 'application/pdf' });
    expect(pdf.toString('latin1').match(/\/Type\s*\/Page(?!s)/g) ?? [], format).toHaveLength(1);
  }
});

test('a job on a 375 px phone shows the needles large and its moves, without sideways scrolling', async ({ page }, testInfo) => {
  const account = await newAccount(testInfo, 'jobs-phone');
  await logIn(page, account);
  const team = await teamOf(page);
  await post(page, `/api/v2/teams/${team}/threads`, { name: 'Poppy red', colour: '#ED171F', quantity: 2, spool_length_m: 1000 });
  await post(page, `/api/v2/teams/${team}/threads`, { name: 'Snow white', colour: '#F0F0F0', quantity: 1, spool_length_m: 1000 });
  await post(page, `/api/v2/teams/${team}/machines`, { name: 'Tajima', heads: 1, needles_per_head: 1, typical_spm: 800 });
  await page.goto('/designs');
  await page
    .getByLabel('Design files')
    .setInputFiles([{ name: 'star.pes', mimeType: 'application/octet-stream', buffer: await readFile(path.join(designs, 'star-v7.pes')) }]);
  await expect(page.getByRole('list', { name: 'Uploads' }).getByText('Added', { exact: true })).toBeVisible();
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/jobs');
  const form = page.getByRole('region', { name: 'Make a job' });
  await form.getByLabel('Name').fill('Stars for the fair');
  await form.getByLabel('Design').selectOption({ label: 'star.pes' });
  await form.getByLabel('Pieces').fill('5');
  await form.getByLabel('Machine').selectOption({ label: 'Tajima (1 needle)' });
  await form.getByRole('button', { name: 'Make the job' }).click();
  await expect(page).toHaveURL(/\/jobs\/[A-Za-z0-9]{16}$/);
  // The PES file stores its colours: Bobbin chose the threads itself.
  const plan = page.getByRole('region', { name: 'Colour plan' });
  await expect(plan.getByRole('combobox')).toHaveCount(2);
  for (const choice of await plan.getByRole('combobox').all()) await expect(choice).not.toHaveValue('');
  const needles = page.getByRole('region', { name: 'Needles' });
  await expect(needles.getByRole('list', { name: 'Threads on the needles' }).getByRole('listitem')).toHaveCount(1);
  await expect(needles.getByRole('note')).toContainText("More threads than the machine's 1 needle: 1 re-thread");
  const size = await needles
    .getByRole('listitem')
    .first()
    .evaluate((item) => parseFloat(getComputedStyle(item).fontSize));
  expect(size).toBeGreaterThanOrEqual(18);
  await expect(page.getByRole('region', { name: 'On the machine' }).getByRole('button', { name: 'Mark ready' })).toBeVisible();
  const sideways = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(sideways).toBeLessThanOrEqual(0);
  await testInfo.attach('job-375.png', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
});
