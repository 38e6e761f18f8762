import { readFile } from 'node:fs/promises';

import type { Page } from '@playwright/test';

import { expect, test } from '../fixtures/test';
import { asTheApp, fillLogin } from '../fixtures/accounts';
import { invite, inviteLink, logIn, newAccount, secondBrowser } from '../fixtures/teams';

// The thread and machine inventories of this worker's personal team, against the development
// server. The worker's tests share that team, so each test finds its own entries by searching
// for them rather than counting the whole list.
test.use({ signedIn: true });

/** The public id of the signed-in person's first team (a new account has one: its own). */
async function firstTeam(page: Page): Promise<string> {
  const teams = (await (await page.request.get('/api/v2/teams')).json()) as { teams: { public_id: string }[] };
  return teams.teams[0]?.public_id ?? '';
}

/** A custom thread (no catalogue line: a team may own as many as it likes), added through the API. */
async function addCustomThread(
  page: Page,
  team: string,
  thread: { name: string; colour: string; quantity: number; location?: string; reorder_point?: number },
) {
  const added = await page.request.post(`/api/v2/teams/${team}/threads`, { data: thread, headers: asTheApp() });
  expect(added.status(), await added.text()).toBe(201);
}

/** A word no other test uses, so a search finds only this test's threads in the shared team. */
const unique = (tag: string) => `${tag}${Math.random().toString(36).slice(2, 8)}`;

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
    await expect(quantity).toHaveValue('2');
    // Shown at once; reloaded only once the server has it (a reload cancels a request on its way).
    const saved = page.waitForResponse((response) => response.url().endsWith('/adjust') && response.ok());
    await page.getByRole('button', { name: '+1: one more of 1800 Wildfire' }).click();
    await expect(quantity).toHaveValue('3');
    await saved;
    await page.reload();
    await page.getByRole('searchbox', { name: 'Search', exact: true }).fill('Wildfire');
    await expect(page.getByLabel('Quantity of 1800 Wildfire')).toHaveValue('3');
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
  const csv = (rows: string[]) => ({
    name: 'threads.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`line;code;quantity\n${rows.join('\n')}\n`),
  });

  await test.step('a file with an unknown code is previewed, not imported', async () => {
    await file.setInputFiles(csv(['isacord-polyester;0105;3', 'isacord-polyester;99999;1']));
    const preview = page.getByRole('region', { name: 'Import preview' });
    await expect(preview.getByRole('row')).toHaveCount(3);
    await expect(
      page.getByText('2 rows: 1 with problems: fix them in the file and choose it again, or import the others alone.'),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Import', exact: true })).toHaveCount(0);
    // The good row alone is offered, not taken: this step imports nothing.
    await expect(page.getByRole('button', { name: 'Import the 1 good row, skip 1' })).toBeVisible();
  });

  await test.step('the fixed file imports, all rows at once', async () => {
    await file.setInputFiles(csv(['isacord-polyester;0105;3', 'isacord-polyester;0108;1.5']));
    await expect(page.getByText('2 rows: all valid.')).toBeVisible();
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await expect(page.getByText('Imported: 2 added, 0 updated.')).toBeVisible();
    await page.getByRole('searchbox', { name: 'Search', exact: true }).fill('0108');
    await expect(page.getByLabel('Quantity of 0108 Cobblestone')).toHaveValue('1.5');
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
      headers: asTheApp(),
    });
    // 409 already_in_inventory when this worker's account ran the test before (a retry).
    expect([201, 409], await added.text()).toContain(added.status());
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

test('the inventory is reached from the header and from the dashboard', async ({ page }) => {
  // The dashboard's Tools (a new team's "Get started" leads to the same pages).
  const tools = page.getByRole('region', { name: 'Tools' });
  await page.goto('/dashboard');
  await tools.getByRole('link', { name: 'Thread Inventory', exact: true }).click();
  await expect(page).toHaveTitle('Bobbin - Thread Inventory');
  await page.goto('/dashboard');
  await tools.getByRole('link', { name: 'Machines', exact: true }).click();
  await expect(page).toHaveTitle('Bobbin - Machines');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Inventory', exact: true }).click();
  await expect(page).toHaveURL(/\/inventory$/);
  await expect(page).toHaveTitle('Bobbin - Calculators');
});

test('the thread list fits a 375 px screen, each thread a card whose +1 works', async ({ page }) => {
  const name = unique('Phone');
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto('/inventory/threads');
  await addCustomThread(page, await firstTeam(page), { name, colour: '#2E8B57', quantity: 2, location: 'Phone shelf', reorder_point: 3 });
  await page.getByRole('searchbox', { name: 'Search', exact: true }).fill(name);
  const quantity = page.getByLabel(`Quantity of ${name}`);
  await expect(quantity).toHaveValue('2');
  await expect(page.getByRole('link', { name })).toBeVisible();
  // The list before the search (the worker's shared team, other tests' low threads in it) stays
  // on screen until the search's answer replaces it: one chip once it has.
  await expect(page.getByText('Low stock', { exact: true })).toHaveCount(1);
  await expect(page.getByText('Low stock', { exact: true })).toBeVisible();

  await test.step('the first thread shows on the first screen: the filters wait behind one button', async () => {
    await page.evaluate(() => window.scrollTo(0, 0));
    const card = await page.getByRole('link', { name }).boundingBox();
    expect(card?.y).toBeLessThan(740);
    const filters = page.getByRole('button', { name: 'Filters' });
    await expect(page.getByRole('search').getByRole('combobox', { name: 'Line' })).toBeHidden();
    await filters.click();
    await expect(filters).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByRole('search').getByRole('combobox', { name: 'Line' })).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('threads-375.png') });
    await filters.click();
  });

  await test.step('a count typed into the list is saved; threads chosen get one shelf', async () => {
    const saved = page.waitForResponse((response) => response.url().endsWith('/quantity') && response.ok());
    await quantity.fill('5');
    await quantity.press('Enter');
    await saved;
    await page.getByRole('checkbox', { name: `Choose ${name}` }).check();
    const chosen = page.getByRole('form', { name: 'Change the chosen threads' });
    await chosen.getByLabel('Location').fill('Phone drawer');
    await chosen.screenshot({ path: test.info().outputPath('chosen-375.png') });
    await chosen.getByRole('button', { name: 'Set for the chosen' }).click();
    await expect(page.getByText('Changed 1 thread.')).toBeVisible();
    await page.reload();
    await expect(page.getByLabel(`Quantity of ${name}`)).toHaveValue('5');
    await expect(page.getByRole('region', { name: 'Threads' })).toContainText('Phone drawer');
  });

  await test.step('nothing is wider than the screen, the list included', async () => {
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    const list = page.getByRole('region', { name: 'Threads' });
    expect(await list.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);
  });

  await test.step('the buttons are big enough to tap, and +1 counts', async () => {
    const more = page.getByRole('button', { name: `+1: one more of ${name}` });
    const fewer = page.getByRole('button', { name: `−1: one fewer of ${name}` });
    for (const button of [more, fewer]) {
      const box = await button.boundingBox();
      expect(box?.width).toBeGreaterThanOrEqual(44);
      expect(box?.height).toBeGreaterThanOrEqual(44);
    }
    const saved = page.waitForResponse((response) => response.url().endsWith('/adjust') && response.ok());
    await more.click();
    await expect(quantity).toHaveValue('6');
    await saved;
    await page.reload();
    await expect(page.getByLabel(`Quantity of ${name}`)).toHaveValue('6');
  });
});

test('the search and the filters survive a reload, and Back from a thread', async ({ page }) => {
  const word = unique('Reload');
  await page.goto('/inventory/threads');
  const team = await firstTeam(page);
  await addCustomThread(page, team, { name: `${word} short`, colour: '#AA3344', quantity: 1, reorder_point: 2 });
  await addCustomThread(page, team, { name: `${word} plenty`, colour: '#AA3345', quantity: 5, reorder_point: 1 });
  const search = page.getByRole('searchbox', { name: 'Search', exact: true });
  const short = page.getByRole('link', { name: `${word} short` });
  const plenty = page.getByRole('link', { name: `${word} plenty` });

  await search.fill(word);
  await expect(plenty).toBeVisible();
  await expect(short).toBeVisible();
  await page.getByLabel('Low stock only').check();
  await expect(plenty).toHaveCount(0);
  await expect(short).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/inventory/threads\\?q=${word}&low=true$`));
  const address = page.url();

  await test.step('a reload shows the same list', async () => {
    await page.reload();
    expect(page.url()).toBe(address);
    await expect(search).toHaveValue(word);
    await expect(page.getByLabel('Low stock only')).toBeChecked();
    await expect(short).toBeVisible();
    await expect(plenty).toHaveCount(0);
    await expect(page.getByText('1–1 of 1')).toBeVisible();
  });

  await test.step('the address opened afresh, as a shared link, and Back from a thread, too', async () => {
    await page.goto(address);
    await expect(short).toBeVisible();
    await short.click();
    await expect(page).toHaveTitle('Bobbin - Thread Details');
    await page.goBack();
    expect(page.url()).toBe(address);
    await expect(search).toHaveValue(word);
    await expect(short).toBeVisible();
    await expect(plenty).toHaveCount(0);
  });
});

test('closest to a colour: nearest first, each with its ΔE', async ({ page }) => {
  const word = unique('Hue');
  await page.goto('/inventory/threads');
  const team = await firstTeam(page);
  await addCustomThread(page, team, { name: `${word} blue`, colour: '#0000FF', quantity: 1 });
  await addCustomThread(page, team, { name: `${word} red`, colour: '#FF0000', quantity: 1 });
  await addCustomThread(page, team, { name: `${word} dark red`, colour: '#C00000', quantity: 1 });
  await page.getByRole('searchbox', { name: 'Search', exact: true }).fill(word);
  const list = page.getByRole('region', { name: 'Threads' });
  await expect(list.getByRole('link')).toHaveCount(3);

  await test.step('typed as text', async () => {
    await page.getByLabel('Closest to colour').fill('ff0000');
    await expect(list.getByRole('link')).toHaveText([`${word} red`, `${word} dark red`, `${word} blue`]);
    await expect(list.getByRole('columnheader', { name: 'ΔE' })).toBeVisible();
    const rows = list.getByRole('row');
    await expect(rows.nth(1)).toContainText('ΔE 0.0');
    await expect(rows.nth(2)).toContainText(/ΔE \d+\.\d/);
    await expect(page).toHaveURL(/closest=FF0000/);
  });

  await test.step('chosen with the picker', async () => {
    await page.getByLabel('Pick the colour').fill('#0000ff');
    await expect(page.getByLabel('Closest to colour')).toHaveValue('#0000FF');
    await expect(list.getByRole('link')).toHaveText([`${word} blue`, `${word} dark red`, `${word} red`]);
    await expect(list.getByRole('row').nth(1)).toContainText('ΔE 0.0');
  });

  await test.step('a colour that is not one is refused on the spot', async () => {
    const field = page.getByLabel('Closest to colour');
    await field.fill('#12345');
    await field.blur();
    await expect(page.getByText('Give the colour as #RRGGBB, e.g. #1F2A44.')).toBeVisible();
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await page.getByRole('button', { name: 'Clear the colour' }).click();
    await expect(list.getByRole('columnheader', { name: 'ΔE' })).toHaveCount(0);
    await expect(page).not.toHaveURL(/closest=/);
  });
});

test.describe('a viewer of the team', () => {
  // Accounts of their own: the owner invites the second person and changes their role.
  test.use({ signedIn: false });

  test('sees the threads and their details, without anything that changes them', async ({ page, browser }, testInfo) => {
    const owner = await newAccount(testInfo, 'stock-owner');
    const guest = await newAccount(testInfo, 'stock-viewer');
    const name = unique('Viewed');
    await logIn(page, owner);
    await addCustomThread(page, await firstTeam(page), { name, colour: '#123456', quantity: 4, location: 'Shelf V' });
    await invite(page, guest.email, 'Member');

    const second = await secondBrowser(browser, testInfo);
    await test.step('the second person joins from the invite, and the owner makes them a viewer', async () => {
      await second.page.goto(await inviteLink(page, guest.email));
      await fillLogin(second.page, guest);
      await expect(second.page).toHaveURL(/\/team$/);
      await page.reload();
      await page.getByRole('combobox', { name: `Role of ${guest.email}` }).selectOption({ label: 'Viewer' });
      await expect(page.getByText(`${guest.email} is now viewer.`)).toBeVisible();
    });

    const viewer = second.page;
    await test.step('the list: the thread and its quantity, no buttons, no forms', async () => {
      await viewer.goto('/inventory/threads');
      await viewer.getByRole('searchbox', { name: 'Search', exact: true }).fill(name);
      await expect(viewer.getByLabel(`Quantity of ${name}`)).toHaveText('4');
      await expect(viewer.getByRole('button', { name: /^[+−]1: one (more|fewer) of / })).toHaveCount(0);
      for (const form of ['Add thread', 'Add many', 'Import CSV']) {
        await expect(viewer.getByRole('region', { name: form })).toHaveCount(0);
      }
      await expect(viewer.getByLabel('CSV file')).toHaveCount(0);
      await expect(viewer.getByText('Viewers see the inventory; members and above change it.')).toBeVisible();
    });

    await test.step('the details: read only, no Save, no Remove', async () => {
      await viewer.getByRole('link', { name }).click();
      await expect(viewer).toHaveTitle('Bobbin - Thread Details');
      const location = viewer.getByLabel('Location');
      await expect(location).toHaveValue('Shelf V');
      await expect(location).not.toBeEditable();
      await expect(viewer.getByRole('button', { name: 'Save' })).toHaveCount(0);
      await expect(viewer.getByRole('button', { name: /Remove/ })).toHaveCount(0);
    });
    await second.close();
  });
});

test.describe('a stale edit', () => {
  // The refused save is the point of the test: Chromium reports its 409 as a failed resource.
  test.use({ allowFailedRequests: true });

  test('an edit overtaken by a tap elsewhere shows both versions and saves on top, at 375 px', async ({ page }, testInfo) => {
    const name = unique('Clash');
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto('/inventory/threads');
    const team = await firstTeam(page);
    const added = await page.request.post(`/api/v2/teams/${team}/threads`, {
      data: { name, colour: '#4B0082', quantity: 2, location: 'Shelf E' },
      headers: asTheApp(),
    });
    expect(added.status(), await added.text()).toBe(201);
    const { thread } = (await added.json()) as { thread: { id: string; version: number } };
    const path = `/api/v2/teams/${team}/threads/${thread.id}`;

    await test.step('the edit page is opened at version 1 and the location typed', async () => {
      await page.goto(`/inventory/threads/${thread.id}`);
      await expect(page).toHaveTitle('Bobbin - Thread Details');
      await page.getByLabel('Location').fill('Drawer 7');
    });

    await test.step('meanwhile a spool is added elsewhere, through the API', async () => {
      const tapped = await page.request.post(`${path}/adjust`, { data: { delta: 1 }, headers: asTheApp() });
      expect(tapped.status(), await tapped.text()).toBe(200);
      expect(((await tapped.json()) as { thread: { version: number } }).thread.version).toBe(2);
    });

    const panel = page.getByRole('region', { name: /changed this thread while you were editing$/ });
    await test.step('Save runs into the new version: both are shown, nothing typed is lost', async () => {
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(panel).toBeVisible();
      await expect(panel.getByRole('heading')).toBeFocused();
      await expect(panel.getByRole('row', { name: /^Quantity/ })).toContainText('3 (just changed)');
      await expect(panel.getByRole('row', { name: /^Location/ })).toContainText('Drawer 7');
      await expect(page.getByLabel('Location')).toHaveValue('Drawer 7');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await panel.screenshot({ path: testInfo.outputPath('edit-conflict-375.png') });
      await page.screenshot({ path: testInfo.outputPath('edit-conflict-375-page.png'), fullPage: true });
    });

    await test.step('one action saves the typed location on top, keeping the added spool', async () => {
      await panel.getByRole('button', { name: 'Save my changes' }).press('Enter');
      await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
      await expect(panel).toHaveCount(0);
      const stored = (await (await page.request.get(path)).json()) as { thread: { quantity: number; location: string; version: number } };
      expect(stored.thread).toMatchObject({ quantity: 3, location: 'Drawer 7', version: 3 });
      await expect(page.getByLabel('Quantity')).toHaveValue('3');
    });
  });
});

test.describe('low stock and the shopping list', () => {
  // A team of its own: its default reorder point would change what is low in the worker's team.
  test.use({ signedIn: false });

  test('none left is low without set-up; the team default adds more; the list says what to buy and prints', async ({ page }, testInfo) => {
    const owner = await newAccount(testInfo, 'shopper');
    await logIn(page, owner);
    const team = await firstTeam(page);
    await addCustomThread(page, team, { name: 'Empty red', colour: '#C8102E', quantity: 0, location: 'Drawer 1' });
    await addCustomThread(page, team, { name: 'Few blue', colour: '#1F2A44', quantity: 2 });
    await addCustomThread(page, team, { name: 'Plenty green', colour: '#2E8B57', quantity: 9, reorder_point: 1 });
    const added = await page.request.post(`/api/v2/teams/${team}/threads`, {
      data: { line: 'isacord-polyester', code: '1800', quantity: 1 },
      headers: asTheApp(),
    });
    expect(added.status(), await added.text()).toBe(201);
    /** Each row of the shopping list, as its cells read. */
    const rows = () =>
      page
        .getByRole('table')
        .evaluate((table) =>
          [...table.querySelectorAll('tbody tr')].map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent.trim())),
        );

    await test.step('with no reorder point anywhere, the dashboard counts the empty spool, and leads to the list', async () => {
      await page.goto('/dashboard');
      const low = page.getByRole('region', { name: 'Low stock' });
      await expect(low).toContainText('1 thread is low on stock.');
      await low.getByRole('link', { name: 'See what to buy' }).click();
      await expect(page).toHaveTitle('Bobbin - Shopping List');
      await expect(page.getByText('1 thread to buy, 1 spool in all.')).toBeVisible();
      expect(await rows()).toEqual([['Custom threads'], ['Empty redDrawer 1', '0', '—', '1']]);
    });

    await test.step('the owner sets a default reorder point and a preferred line, which a reload shows as saved', async () => {
      await page.goto('/team');
      await page.getByLabel('Default reorder point').fill('3');
      await page.getByLabel('Preferred thread line').selectOption({ label: 'Isacord Polyester' });
      await page.getByRole('button', { name: 'Save settings' }).click();
      await expect(page.getByText('The team settings are saved.')).toBeVisible();
      await page.reload();
      await expect(page.getByLabel('Default reorder point')).toHaveValue('3');
      await expect(page.getByLabel('Preferred thread line')).toHaveValue('isacord-polyester');
    });

    await test.step('the thread inventory searches the preferred line, and leads to the shopping list', async () => {
      await page.goto('/inventory/threads');
      await expect(page.getByRole('region', { name: 'Add thread' }).getByLabel('Search in')).toHaveValue('isacord-polyester');
      await expect(page.getByRole('region', { name: 'Add many' }).getByLabel('Line')).toHaveValue('isacord-polyester');
      await page.getByRole('link', { name: 'Shopping list' }).click();
      await expect(page).toHaveTitle('Bobbin - Shopping List');
      await expect(page.getByText('3 threads to buy, 9 spools in all.')).toBeVisible();
      expect(await rows()).toEqual([
        ['Isacord Polyester'],
        ['1800 Wildfire', '1', '3', '3'],
        ['Custom threads'],
        ['Empty redDrawer 1', '0', '3', '4'],
        ['Few blue', '2', '3', '2'],
      ]);
    });

    await test.step('on paper: the list without the header, the navigation and the buttons', async () => {
      await page.emulateMedia({ media: 'print' });
      await expect(page.getByRole('button', { name: 'Print' })).toBeHidden();
      await expect(page.getByRole('navigation', { name: 'Account' })).toBeHidden();
      await expect(page.getByRole('link', { name: '← Thread Inventory' })).toBeHidden();
      await expect(page.getByRole('table')).toBeVisible();
      await page.screenshot({ path: testInfo.outputPath('shopping-list-print.png'), fullPage: true });
      await page.emulateMedia({ media: 'screen' });
      await expect(page.getByRole('button', { name: 'Print' })).toBeVisible();
    });

    await test.step('at 375 px nothing is wider than the screen', async () => {
      await page.setViewportSize({ width: 375, height: 740 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await page.screenshot({ path: testInfo.outputPath('shopping-list-375.png'), fullPage: true });
      await page.goto('/dashboard');
      await expect(page.getByRole('region', { name: 'Low stock' })).toContainText('3 threads are low on stock.');
      await page.screenshot({ path: testInfo.outputPath('dashboard-375.png'), fullPage: true });
      await page.goto('/team');
      await expect(page.getByLabel('Default reorder point')).toHaveValue('3');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await page.getByRole('region', { name: 'Team settings' }).screenshot({ path: testInfo.outputPath('team-settings-375.png') });
      await page.goto('/inventory/threads');
      await page.getByRole('region', { name: 'Add thread' }).screenshot({ path: testInfo.outputPath('add-thread-375.png') });
    });
  });
});
