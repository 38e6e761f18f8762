import { readFile } from 'node:fs/promises';

import { expect, test } from '../fixtures/test';

// The thread and machine inventories of this worker's personal team, against the development
// server. The worker's tests share that team, so each test finds its own entries by searching
// for them rather than counting the whole list.
test.use({ signedIn: true });

test('threads are added from the catalogue, changed in one tap and exported', async ({ page }) => {
  await page.goto('/inventory');
  await expect(page).toHaveTitle('Bobbin - Calculators');
  await page.getByRole('link', { name: 'Thread Inventory' }).click();
  await expect(page).toHaveTitle('Bobbin - Thread Inventory');

  await test.step('find a thread in the catalogue by code and add two spools', async () => {
    const add = page.getByRole('region', { name: 'Add thread' });
    await add.getByLabel('Search the catalogue').fill('1800');
    await add.getByRole('button', { name: '1800 Wildfire Isacord Polyester' }).click();
    await add.getByLabel('Quantity').fill('2');
    await add.getByLabel('Location').fill('Drawer W');
    await add.getByRole('button', { name: 'Add to inventory' }).click();
    await expect(add.getByRole('status').filter({ hasText: 'Added' })).toHaveText('Added 1800 Wildfire.');
  });

  await test.step('search the list and add a spool in one tap', async () => {
    await page.getByRole('searchbox', { name: 'Search', exact: true }).fill('Wildfire');
    const quantity = page.getByLabel('Quantity of 1800 Wildfire');
    await expect(quantity).toHaveText('2');
    await page.getByRole('button', { name: 'One more of 1800 Wildfire' }).click();
    await expect(quantity).toHaveText('3');
    await page.reload();
    await page.getByRole('searchbox', { name: 'Search', exact: true }).fill('Wildfire');
    await expect(page.getByLabel('Quantity of 1800 Wildfire')).toHaveText('3');
  });

  await test.step('export the inventory as CSV', async () => {
    const downloading = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Export CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('threads.csv');
    const csv = await readFile(await download.path(), 'utf8');
    expect(csv).toMatch(/^line,code,/);
    expect(csv).toContain('isacord-polyester,1800,Wildfire');
  });
});

test('a CSV import shows the bad row first, and imports once the file is fixed', async ({ page }) => {
  await page.goto('/inventory/threads');
  const file = page.getByLabel('CSV file');
  const csv = (rows: string[]) => ({ name: 'threads.csv', mimeType: 'text/csv', buffer: Buffer.from(`line;code;quantity\n${rows.join('\n')}\n`) });

  await test.step('a file with an unknown code is previewed, not imported', async () => {
    await file.setInputFiles(csv(['isacord-polyester;0105;3', 'isacord-polyester;99999;1']));
    const preview = page.getByRole('region', { name: 'Import preview' });
    await expect(preview.getByRole('row')).toHaveCount(3);
    await expect(page.getByText('2 row(s): 1 with problems.', { exact: false })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Import', exact: true })).toHaveCount(0);
  });

  await test.step('the fixed file imports, all rows at once', async () => {
    await file.setInputFiles(csv(['isacord-polyester;0105;3', 'isacord-polyester;0108;1.5']));
    await expect(page.getByText('2 row(s): all valid.')).toBeVisible();
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await expect(page.getByText('Imported: 2 added, 0 updated.')).toBeVisible();
    await page.getByRole('searchbox', { name: 'Search', exact: true }).fill('0108');
    await expect(page.getByLabel('Quantity of 0108 Cobblestone')).toHaveText('1.5');
  });
});

test('a machine is added, its maintenance logged, and the next due date follows', async ({ page }) => {
  const name = `Tajima ${Math.random().toString(36).slice(2, 8)}`;
  await page.goto('/inventory/machines');
  await expect(page).toHaveTitle('Bobbin - Machines');

  await test.step('add the machine', async () => {
    const form = page.getByRole('form', { name: 'Add machine' });
    await form.getByLabel('Name', { exact: true }).fill(name);
    await form.getByLabel('Brand').fill('Tajima');
    await form.getByLabel('Needles per head').fill('15');
    await form.getByRole('button', { name: 'Add machine' }).click();
    await expect(form.getByRole('status')).toHaveText(`Added ${name}.`);
    await expect(page.getByRole('listitem').filter({ hasText: name })).toContainText('Next maintenance: Oiling');
  });

  await test.step('log an oiling and see it no longer due', async () => {
    await page.getByRole('link', { name }).click();
    await expect(page).toHaveTitle('Bobbin - Machine Details');
    const due = page.getByRole('list', { name: 'Maintenance due' });
    await expect(due.getByRole('listitem').filter({ hasText: /^Oiling/ })).toContainText('never logged');
    const form = page.getByRole('form', { name: 'Log maintenance' });
    await form.getByLabel('Kind').selectOption('oiling');
    await form.getByLabel('Stitch counter').fill('120000');
    await form.getByRole('button', { name: 'Log maintenance' }).click();
    await expect(form.getByRole('status')).toContainText('Logged oiling');
    await expect(page.getByRole('list', { name: 'Maintenance log' })).toContainText('Oiling at 120,000 stitches');
    const oiling = due.getByRole('listitem').filter({ hasText: /^Oiling/ });
    await expect(oiling).not.toContainText('never logged');
    await expect(oiling).not.toContainText('overdue');
  });
});

test('the converter finds the closest thread the team owns, with how many', async ({ page }) => {
  await page.goto('/inventory/threads');
  await test.step('the team owns four spools of Madeira Polyneon 1800', async () => {
    const teams = (await (await page.request.get('/api/v2/teams')).json()) as { teams: { public_id: string }[] };
    const team = teams.teams[0]?.public_id ?? '';
    const added = await page.request.post(`/api/v2/teams/${team}/threads`, {
      data: { line: 'madeira-polyneon', code: '1800', quantity: 4 },
    });
    expect(added.status()).toBe(201);
  });

  await test.step('only owned threads are matched, each with its count', async () => {
    await page.goto('/tools/thread-converter?hex=2F3032&to=madeira-polyneon');
    const line = page.getByRole('region', { name: 'Madeira Polyneon' });
    await expect(line.getByRole('listitem')).toHaveCount(3);
    await page.getByRole('checkbox', { name: 'Only threads we own' }).check();
    await expect(line.getByRole('listitem')).toHaveCount(1);
    await expect(line.getByRole('listitem')).toContainText('1800');
    await expect(line.getByRole('listitem')).toContainText('owned ×4');
    await expect(page).toHaveURL(/owned=1/);
  });
});
