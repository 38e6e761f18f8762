// Issue 51, quotes a customer approves: "Playwright from both sides: the shop, and the customer in a
// separate browser context with no session". The shop prices a design of its library, saves the
// quote, writes the customer, the quantities and a line of its own, and makes a link; the customer,
// with no account, opens it, sees the prices without the shop's rates, and approves one quantity
// with a typed name and an order number; the shop sees the approval and makes the job in one click.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import type { Page } from '@playwright/test';

import { logIn, newAccount } from '../fixtures/teams';
import { expect, test } from '../fixtures/test';

/** The sample designs (testdata/designs of the repository). */
const designs = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../testdata/designs');

/** Whether the page is wider than its window (it would scroll sideways). */
function sidewaysScroll(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
}

test('a quote goes from the calculator to the customer, who approves it, and becomes a job', async ({ page, browser }, testInfo) => {
  // Two browsers, an upload, and up to 15 s for the shop's page to read the approval again.
  test.slow();
  const account = await newAccount(testInfo, 'quotes');
  await logIn(page, account);

  await test.step('price a design of the library and save the quote', async () => {
    await page.goto('/designs');
    await page
      .getByLabel('Design files')
      .setInputFiles([
        { name: 'star.pes', mimeType: 'application/octet-stream', buffer: await readFile(path.join(designs, 'star-v7.pes')) },
      ]);
    await expect(page.getByRole('list', { name: 'Uploads' }).getByText('Added', { exact: true })).toBeVisible();
    await page.getByRole('list', { name: 'Designs' }).getByRole('link', { name: 'star.pes' }).click();
    await page.getByRole('link', { name: 'Price this design' }).click();
    await expect(page).toHaveURL(/\/calculators\/pricing\?design=/);
    const save = page.getByRole('region', { name: 'Save quote' });
    await save.getByLabel('Name').fill('Café Rosa: star polos');
    await save.getByRole('button', { name: 'Save quote' }).click();
    await save.getByRole('link', { name: 'Open Q-0001' }).click();
    await expect(page).toHaveURL(/\/quotes\/[A-Za-z0-9]{16}$/);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Q-0001');
  });

  await test.step('write the customer, offer two quantities and a line of the shop, and save a new version', async () => {
    const editor = page.getByRole('form', { name: 'The quote' });
    await editor.getByLabel('Name', { exact: true }).fill('Rosa Díaz');
    await editor.getByLabel('Company').fill('Café Rosa');
    await editor.getByLabel('E-mail').fill('rosa@example.com');
    await editor.getByLabel('Quantities offered').fill('12, 24');
    await editor.getByRole('button', { name: 'Add a line' }).click();
    await editor.getByLabel('Line 1', { exact: true }).fill('Polo shirts');
    await editor.getByLabel('Unit price').fill('8.50');
    await editor.getByRole('button', { name: 'Save the quote' }).click();
    await expect(editor.getByRole('status')).toContainText('Saved as version 2');
    const offer = page.getByRole('region', { name: 'What the customer is offered' });
    await expect(offer.getByRole('columnheader', { name: '24 pieces' })).toBeVisible();
    await expect(offer.getByRole('row', { name: /Polo shirts/ })).toContainText('204.00');
  });

  let link = '';
  await test.step('make a link to share', async () => {
    await page.getByRole('button', { name: 'Make a link to share' }).click();
    link = await page.getByLabel("The customer's link (shown this once)").inputValue();
    expect(link).toMatch(/\/q\/[A-Za-z0-9_-]{43}$/);
    await expect(page.locator('.quote-page__standing')).toContainText('Sent');
  });

  await test.step('the customer, with no session, opens the link and approves 24 pieces', async () => {
    // A phone first: the customer most often opens the e-mail there.
    const customer = await browser.newContext({ viewport: { width: 375, height: 800 } });
    const quote = await customer.newPage();
    await quote.goto(link);
    await expect(quote).toHaveTitle(/Quote Q-0001/);
    await expect(quote.getByRole('heading', { name: 'Café Rosa: star polos' })).toBeVisible();
    expect(await sidewaysScroll(quote)).toBe(false);
    await quote.screenshot({ path: testInfo.outputPath('customer-375.png'), fullPage: true });
    await quote.setViewportSize({ width: 1280, height: 900 });
    await quote.screenshot({ path: testInfo.outputPath('customer-1280.png'), fullPage: true });
    // Prices, and nothing of the shop's rates.
    const body = quote.locator('body');
    await expect(body).toContainText('24 pieces');
    for (const internal of ['per 1,000', 'Markup', 'Profit', 'an hour', 'Machine time']) {
      await expect(body).not.toContainText(internal);
    }
    const pdf = await quote.request.get(`${link.replace('/q/', '/api/v2/public/quotes/')}/pdf`);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toBe('application/pdf');

    await quote.getByRole('radio', { name: /24 pieces/ }).check();
    await quote.getByLabel('Your name', { exact: true }).fill('Rosa Díaz');
    await quote.getByLabel('Order number (optional)').fill('PO-77');
    await quote.getByRole('button', { name: 'Approve quote' }).click();
    await expect(quote.getByText(/Approved by Rosa Díaz/)).toBeVisible();
    await expect(quote.getByRole('button', { name: 'Approve quote' })).toHaveCount(0);
    await customer.close();
  });

  await test.step('the shop sees the approval and makes the job in one action', async () => {
    await expect(page.getByRole('status').filter({ hasText: 'Approved by Rosa Díaz' })).toBeVisible({ timeout: 20_000 });
    await expect(page.getByRole('list').filter({ hasText: 'The customer opened version 2' })).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('shop-1280.png'), fullPage: true });
    await page.setViewportSize({ width: 375, height: 800 });
    expect(await sidewaysScroll(page)).toBe(false);
    await page.screenshot({ path: testInfo.outputPath('shop-375.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('button', { name: 'Make the job' }).click();
    await expect(page).toHaveURL(/\/jobs\/[A-Za-z0-9]{16}$/);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Café Rosa: star polos');
    await expect(page.locator('body')).toContainText('Quote Q-0001, approved by Rosa Díaz, order PO-77.');
  });

  await test.step('the quotes list shows it approved with the chosen quantity', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Quotes' }).click();
    await page.getByRole('link', { name: 'Approved', exact: true }).click();
    const row = page.getByRole('row', { name: /Café Rosa: star polos/ });
    await expect(row).toContainText('Q-0001');
    await expect(row).toContainText('for 24 pieces');
  });
});
