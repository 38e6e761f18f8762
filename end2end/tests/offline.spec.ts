// Issue 21, "Offline for real": "visit online, go offline (`context.setOffline(true)`),
// cold-reload, open each page; tap +1 three times and log a maintenance entry offline, reload
// offline, go online, and check the server's quantities and log; a conflict on replay is shown."
//
// These tests run a server of their own (a copy of the release binary, as serve.sh runs one),
// which they stop to take the network away for real: Chromium's offline mode does not reach the
// service worker's own fetches, and a worker that could still reach the server would prove
// nothing about its precache. The browser is a persistent profile, so "a browser restart" is one:
// the same profile folder opened again. While offline, the session's access token is made to have
// expired (its time in the session cookie), so the auth client's refresh fails for want of a
// connection: the person must stay signed in all the same.
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { type BrowserContext, type Page, chromium, request as apiRequest } from '@playwright/test';

import { args, executablePath } from '../playwright.config';
import { PASSWORD, uniqueEmail } from '../fixtures/accounts';
import { expect, test } from '../fixtures/test';

const PORT = 3102;
const SITE = `http://127.0.0.1:${PORT}`;
const here = import.meta.dirname;

/** The server these tests stop and start, on one SQLite database kept between its runs. */
class Server {
  private process: ChildProcess | undefined;
  constructor(private readonly folder: string) {}

  async start(): Promise<void> {
    this.process = spawn(
      path.join(this.folder, 'bobbin'),
      ['serve', '--bind', `127.0.0.1:${PORT}`, '--env', 'development', '--site-url', SITE],
      {
        cwd: this.folder,
        stdio: ['ignore', 'ignore', 'inherit'],
        env: {
          PATH: process.env.PATH ?? '',
          BOBBIN_LOG: 'warn',
          BOBBIN_AUTH_AUTOCONFIRM: 'true',
          BOBBIN_AUTH_RATE_LIMIT: '100000',
        },
      },
    );
    await expect.poll(async () => (await fetch(`${SITE}/healthz`).catch(() => null))?.status, { timeout: 20_000 }).toBe(200);
  }

  async stop(): Promise<void> {
    const running = this.process;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await exited;
  }
}

let server: Server;
let profiles: string;

test.beforeAll(async () => {
  const folder = path.join(here, '..', '.tmp', `offline-${PORT}`);
  await rm(folder, { recursive: true, force: true });
  await mkdir(folder, { recursive: true });
  await copyFile(path.join(here, '..', '..', 'target', 'release', 'bobbin'), path.join(folder, 'bobbin'));
  server = new Server(folder);
  await server.start();
  profiles = await mkdtemp(path.join(tmpdir(), 'bobbin-offline-'));
});

test.afterAll(async () => {
  await server.stop();
  await rm(profiles, { recursive: true, force: true });
});

// One server, whose stops the tests take turns with.
test.describe.configure({ mode: 'serial' });
// The browser's own "Failed to load resource" for requests made without a network is expected.
test.use({ allowFailedRequests: true });

interface Browser {
  context: BrowserContext;
  page: Page;
  /** Closes the browser; fails the test if its page threw or logged an error. */
  close: () => Promise<void>;
}

/**
 * Chromium with a profile kept in `folder`: closing and opening it again is a browser restart. As
 * the fixture's pages do, it fails the test on a page error (but for the browser's own "Failed to
 * load resource" of a request made without a network).
 */
async function openBrowser(folder: string): Promise<Browser> {
  const context = await chromium.launchPersistentContext(folder, { executablePath, args, baseURL: SITE, serviceWorkers: 'allow' });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource:'))
      errors.push(`console.error: ${message.text()}`);
  });
  return {
    context,
    page,
    close: async () => {
      await context.close();
      expect(errors, 'errors in the page').toEqual([]);
    },
  };
}

interface Person {
  email: string;
  token: string;
  team: string;
}

/** An account (confirmed at once by this server), its bearer token and its personal team. */
async function newPerson(page: Page): Promise<Person> {
  const email = uniqueEmail('offline');
  const api = await apiRequest.newContext({ baseURL: SITE });
  const signup = await api.post('/auth/v1/signup', { data: { email, password: PASSWORD } });
  expect(signup.status(), await signup.text()).toBe(200);
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  // The first sign-in makes the person's own team.
  await expect(page.getByRole('combobox', { name: 'Team', exact: true })).toBeVisible();
  const token = await bearer(email);
  const teams = (await (await teammate(token).get('/api/v2/teams')).json()) as { teams: { public_id: string }[] };
  await api.dispose();
  return { email, token, team: teams.teams[0]?.public_id ?? '' };
}

/** A session of the same account made elsewhere (a teammate's phone, say), by bearer token. */
async function bearer(email: string): Promise<string> {
  const api = await apiRequest.newContext({ baseURL: SITE });
  const token = await api.post('/auth/v1/token?grant_type=password', { data: { email, password: PASSWORD } });
  expect(token.status()).toBe(200);
  const { access_token } = (await token.json()) as { access_token: string };
  await api.dispose();
  return access_token;
}

function teammate(token: string) {
  return {
    get: async (url: string) => {
      const api = await apiRequest.newContext({ baseURL: SITE, extraHTTPHeaders: { Authorization: `Bearer ${token}` } });
      return api.get(url);
    },
    post: async (url: string, data: unknown) => {
      const api = await apiRequest.newContext({ baseURL: SITE, extraHTTPHeaders: { Authorization: `Bearer ${token}` } });
      return api.post(url, { data });
    },
  };
}

async function threadQuantity(person: Person, threadId: string): Promise<number> {
  const answer = await teammate(await bearer(person.email)).get(`/api/v2/teams/${person.team}/threads/${threadId}`);
  return ((await answer.json()) as { thread: { quantity: number } }).thread.quantity;
}

/**
 * Makes the session in the browser's cookie look expired (its `expires_at` in the past), as after
 * an hour offline: the auth client then wants a refresh before it says who is signed in.
 */
async function expireSession(context: BrowserContext): Promise<void> {
  const cookies = (await context.cookies(SITE)).filter((cookie) => /^sb-bobbin-auth-token(\.\d+)?$/.test(cookie.name));
  const chunk = (name: string) => (name.includes('.') ? Number(name.split('.').pop()) : 0);
  const value = cookies
    .sort((a, b) => chunk(a.name) - chunk(b.name))
    .map((cookie) => cookie.value)
    .join('');
  expect(value.startsWith('base64-'), 'the session cookie').toBe(true);
  const session = JSON.parse(Buffer.from(value.slice('base64-'.length), 'base64url').toString()) as { expires_at: number };
  session.expires_at = Math.floor(Date.now() / 1000) - 60;
  const expired = `base64-${Buffer.from(JSON.stringify(session)).toString('base64url')}`;
  const template = cookies.at(0);
  if (!template) throw new Error('no session cookie');
  await context.clearCookies({ name: /^sb-bobbin-auth-token/ });
  const parts = expired.match(/.{1,3000}/g) ?? [];
  await context.addCookies(
    parts.map((part, index) => ({
      ...template,
      name: parts.length === 1 ? 'sb-bobbin-auth-token' : `sb-bobbin-auth-token.${index}`,
      value: part,
    })),
  );
}

/** The data cache's copy kept in IndexedDB (lib/offline/persist.ts), '' without one. */
function keptCopy(page: Page): Promise<string> {
  return page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        const open = indexedDB.open('keyval-store');
        open.onsuccess = () => {
          const read = open.result.transaction('keyval').objectStore('keyval').get('bobbin:data-cache');
          read.onsuccess = () => resolve(String(read.result ?? ''));
          read.onerror = () => resolve('');
        };
        open.onerror = () => resolve('');
      }),
  );
}

/**
 * Waits until the service worker is active (it precached the build first, so every page can open
 * offline from now on) and the data cache is saved. Not whether it controls this page, which the
 * pages opened later, offline, do not depend on: in one full run on a slow machine, the
 * `navigator.serviceWorker.controller` of a page opened a moment after the worker had precached
 * every file (and answered the page before's icons) stayed null for 20 s.
 */
async function keptForOffline(page: Page, text: string): Promise<void> {
  const active = () => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.state ?? 'none');
  await expect.poll(active, { timeout: 20_000 }).toBe('activated');
  await expect.poll(() => keptCopy(page)).toContain(text);
}

test('after one visit online, every page opens offline, and taps and maintenance made offline reach the server', async () => {
  test.setTimeout(120_000);
  const folder = path.join(profiles, 'taps');
  let browser = await openBrowser(folder);
  let { context, page } = browser;
  const person = await newPerson(page);
  const owner = teammate(person.token);
  const name = `Offline red ${Math.random().toString(36).slice(2, 6)}`;
  const added = await owner.post(`/api/v2/teams/${person.team}/threads`, { name, colour: '#C0392B', quantity: 5 });
  expect(added.status(), await added.text()).toBe(201);
  const threadId = ((await added.json()) as { thread: { id: string } }).thread.id;
  const machine = await owner.post(`/api/v2/teams/${person.team}/machines`, { name: 'Offline Tajima' });
  expect(machine.status(), await machine.text()).toBe(201);
  const machineId = ((await machine.json()) as { machine: { id: string } }).machine.id;

  await test.step('visit the threads and the machine online', async () => {
    await page.goto(`/inventory/machines/${machineId}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Offline Tajima' })).toBeVisible();
    // Saved at most once a second: a full page load sooner would lose what came in meanwhile.
    await keptForOffline(page, 'Offline Tajima');
    await page.goto('/inventory/threads');
    await expect(page.getByRole('link', { name })).toBeVisible();
    await keptForOffline(page, name);
  });

  await test.step('Chromium finds Bobbin installable, opening in its own window at the dashboard', async () => {
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    expect(installabilityErrors).toEqual([]);
    const manifest = await cdp.send('Page.getAppManifest');
    expect(manifest.errors).toEqual([]);
    expect(JSON.parse(manifest.data ?? '{}')).toMatchObject({ start_url: '/dashboard', display: 'standalone' });
    await cdp.detach();
  });

  await test.step('with the server gone and the browser restarted offline, every page opens', async () => {
    await browser.close();
    await server.stop();
    browser = await openBrowser(folder);
    ({ context, page } = browser);
    await context.setOffline(true);
    await expireSession(context);
    await page.goto('/inventory/threads');
    await expect(page.getByRole('link', { name })).toBeVisible();
    // Signed in still, though the session's refresh could not be made.
    await expect(page.getByRole('button', { name: /^Account: / })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: /^Offline - showing what was loaded at \d\d:\d\d$/ })).toBeVisible();
    await expect(page.locator('.site-header').getByRole('status')).toHaveText('Offline');
    for (const [pagePath, heading] of [
      ['/dashboard', 'Dashboard'],
      ['/team', /Team$/],
      ['/inventory', 'Calculators'],
      [`/inventory/threads/${threadId}`, 'Thread Details'],
      ['/inventory/machines', 'Machines'],
      [`/inventory/machines/${machineId}`, 'Offline Tajima'],
      ['/calculators/pricing', 'Pricing Calculator'],
      ['/tools/thread-converter', 'Thread converter'],
      ['/profile', 'Your account'],
      ['/contact', 'Contact'],
    ] as const) {
      await page.goto(pagePath);
      await expect(page.getByRole('heading', { level: 1, name: heading }), pagePath).toBeVisible();
    }
    // A read never made online says so, rather than load for ever.
    await page.goto('/inventory/shopping-list');
    await expect(page.getByText("You're offline, and this was not loaded on this device before.")).toBeVisible();
    await page.goto('/tools/thread-converter?hex=2F3032&to=madeira-polyneon&owned=1');
    await expect(page.getByRole('checkbox', { name: 'Only threads we own' })).toBeChecked();
    await expect(page.getByText("You're offline, and this was not loaded on this device before.")).toBeVisible();
  });

  await test.step('tap +1 three times and log a maintenance entry, offline', async () => {
    await page.goto('/inventory/threads');
    const more = page.getByRole('button', { name: `+1: one more of ${name}` });
    for (let tap = 0; tap < 3; tap += 1) await more.click();
    await expect(page.getByLabel(`Quantity of ${name}`)).toHaveValue('8');
    await expect(page.getByText('Waiting to be sent')).toBeVisible();
    await expect(page.locator('.site-header').getByRole('status')).toHaveText('Offline · 3 changes to send');

    await page.goto(`/inventory/machines/${machineId}`);
    const log = page.getByRole('form', { name: 'Log maintenance' });
    await log.getByLabel('Notes').fill('Oiled offline');
    await log.getByRole('button', { name: 'Log maintenance' }).click();
    await expect(log.getByRole('status')).toContainText('Kept on this device');
    await expect(page.getByRole('listitem').filter({ hasText: 'Oiled offline' })).toContainText('Waiting to be sent');
  });

  await test.step('signing out with writes waiting warns first', async () => {
    await page.getByRole('button', { name: /^Account: / }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sign out with changes not sent?' });
    await expect(dialog).toContainText('4 changes made on this device have not reached the server yet.');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  await test.step('a reload and a browser restart, still offline, keep them', async () => {
    await page.reload();
    await expect(page.getByRole('listitem').filter({ hasText: 'Oiled offline' })).toContainText('Waiting to be sent');
    await browser.close();
    browser = await openBrowser(folder);
    ({ context, page } = browser);
    await context.setOffline(true);
    await page.goto('/inventory/threads');
    await expect(page.getByLabel(`Quantity of ${name}`)).toHaveValue('8');
    await expect(page.locator('.site-header').getByRole('status')).toHaveText('Offline · 4 changes to send');
  });

  await test.step('back online, they are sent in order and merge with what a teammate did meanwhile', async () => {
    await server.start();
    // A teammate adds two spools while this browser is still offline.
    const teammateTap = await teammate(await bearer(person.email)).post(`/api/v2/teams/${person.team}/threads/${threadId}/adjust`, {
      delta: 2,
    });
    expect(teammateTap.status()).toBe(200);
    await context.setOffline(false);
    await expect(page.locator('.site-header').getByRole('status')).toBeHidden({ timeout: 20_000 });
    await expect.poll(() => threadQuantity(person, threadId)).toBe(10);
    await expect(page.getByLabel(`Quantity of ${name}`)).toHaveValue('10');
    const saved = await teammate(await bearer(person.email)).get(`/api/v2/teams/${person.team}/machines/${machineId}`);
    const log = ((await saved.json()) as { machine: { maintenance: { notes: string }[] } }).machine.maintenance;
    expect(log.map((entry) => entry.notes)).toEqual(['Oiled offline']);
    // Still signed in: the refresh that failed offline was made again.
    await expect(page.getByRole('button', { name: /^Account: / })).toBeVisible();
  });
  await browser.close();
});

test('a count typed offline that someone else changed meanwhile is shown with both counts, not dropped', async () => {
  test.setTimeout(90_000);
  const browser = await openBrowser(path.join(profiles, 'conflict'));
  const { context, page } = browser;
  const person = await newPerson(page);
  const name = `Offline blue ${Math.random().toString(36).slice(2, 6)}`;
  const added = await teammate(person.token).post(`/api/v2/teams/${person.team}/threads`, { name, colour: '#2E86C1', quantity: 5 });
  const threadId = ((await added.json()) as { thread: { id: string } }).thread.id;
  await page.goto('/inventory/threads');
  const count = page.getByLabel(`Quantity of ${name}`);
  await expect(count).toHaveValue('5');

  await context.setOffline(true);
  await count.fill('12');
  await count.press('Enter');
  await expect(page.getByText('Waiting to be sent')).toBeVisible();
  const meanwhile = await teammate(await bearer(person.email)).post(`/api/v2/teams/${person.team}/threads/${threadId}/adjust`, {
    delta: 1,
  });
  expect(meanwhile.status()).toBe(200);

  await context.setOffline(false);
  const refused = page.getByRole('region', { name: 'Changes not saved' });
  await expect(refused).toContainText(`Count of ${name} set to 12`);
  await expect(refused).toContainText('Someone changed this count to 6 after you saw 5, so your 12 was not saved.');
  expect(await threadQuantity(person, threadId)).toBe(6);
  await refused.getByRole('button', { name: 'Use mine (12)' }).click();
  await expect(refused).toBeHidden();
  await expect.poll(() => threadQuantity(person, threadId)).toBe(12);

  await test.step('signing out offline forgets the session and the kept copy on this device', async () => {
    await expect.poll(() => keptCopy(page)).toContain(name);
    await context.setOffline(true);
    await page.getByRole('button', { name: /^Account: / }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(`${SITE}/`);
    await expect(page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Log in' })).toBeVisible();
    expect((await context.cookies(SITE)).map((cookie) => cookie.name).filter((name) => name.startsWith('sb-bobbin-auth-token'))).toEqual(
      [],
    );
    // Nothing of the person is left in it (an empty cache may be saved after the removal).
    const kept = await keptCopy(page);
    expect(kept).not.toContain(name);
    expect(kept).not.toContain(person.email);
  });
  await browser.close();
});

// Issue 52: "A workroom whose Wi-Fi is up but whose internet is down, or a server that is down,
// counts as 'online'. A +1 then cannot be tapped ... When requests fail for lack of a connection,
// the app behaves as offline: the banner shows, writes are queued, and reads come from the last
// copy. It checks for the server again and returns when the server answers."
test('a server that stops answering while the browser is online counts as offline, and the app returns when it answers', async () => {
  test.setTimeout(90_000);
  const browser = await openBrowser(path.join(profiles, 'unreachable'));
  const { page } = browser;
  const person = await newPerson(page);
  const name = `Unreachable green ${Math.random().toString(36).slice(2, 6)}`;
  const added = await teammate(person.token).post(`/api/v2/teams/${person.team}/threads`, { name, colour: '#1E8449', quantity: 5 });
  expect(added.status(), await added.text()).toBe(201);
  const threadId = ((await added.json()) as { thread: { id: string } }).thread.id;
  await page.goto('/inventory/machines');
  await expect(page.getByRole('heading', { level: 1, name: 'Machines' })).toBeVisible();
  await page.goto('/inventory/threads');
  const more = page.getByRole('button', { name: `+1: one more of ${name}` });
  await expect(page.getByLabel(`Quantity of ${name}`)).toHaveValue('5');

  await test.step('the server stops; the browser still says it is online', async () => {
    await server.stop();
    expect(await page.evaluate(() => navigator.onLine)).toBe(true);
    await expect(page.locator('.site-header').getByRole('status')).toBeHidden();
  });

  await test.step('a +1 that gets no answer is kept, and the app shows it is offline', async () => {
    await more.click();
    await expect(page.getByLabel(`Quantity of ${name}`)).toHaveValue('6');
    await expect(page.getByText('Waiting to be sent')).toBeVisible();
    await expect(page.locator('.site-header').getByRole('status')).toHaveText('Offline · 1 change to send');
    await expect(page.getByRole('status').filter({ hasText: /^Offline - showing what was loaded at \d\d:\d\d$/ })).toBeVisible();
    // Nothing says the tap failed.
    await expect(page.getByText('Bobbin could not reach the server')).toHaveCount(0);
    // A second tap is kept at once, and a page read before opens from the copy.
    await more.click();
    await expect(page.locator('.site-header').getByRole('status')).toHaveText('Offline · 2 changes to send');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Inventory' }).click();
    await page.getByRole('link', { name: 'Machines' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Machines' })).toBeVisible();
    await expect(page.getByText('Could not')).toHaveCount(0);
    await page.goBack();
    await page.goBack();
    await expect(page.getByLabel(`Quantity of ${name}`)).toHaveValue('7');
  });

  await test.step('the server is back: the app finds it by itself and sends both taps once', async () => {
    await server.start();
    await expect(page.locator('.site-header').getByRole('status')).toBeHidden({ timeout: 30_000 });
    await expect(page.getByRole('status').filter({ hasText: /^Offline/ })).toHaveCount(0);
    await expect.poll(() => threadQuantity(person, threadId)).toBe(7);
    await expect(page.getByLabel(`Quantity of ${name}`)).toHaveValue('7');
    await expect(page.getByText('Waiting to be sent')).toHaveCount(0);
  });
  await browser.close();
});

/** Whether an image has loaded and drawn something (not a broken image). */
async function drawn(page: Page, name: string): Promise<boolean> {
  return page
    .getByRole('img', { name })
    .evaluate((element) => element instanceof HTMLImageElement && element.complete && element.naturalWidth > 0)
    .catch(() => false);
}

test('the design library and the previews seen open offline, read-only', async () => {
  test.setTimeout(120_000);
  const folder = path.join(profiles, 'designs');
  let browser = await openBrowser(folder);
  let { context, page } = browser;
  const person = await newPerson(page);
  const tag = `off${Math.random().toString(36).slice(2, 6)}`;
  const files = [
    ['star-v7.pes', `${tag}-star.pes`],
    ['shamrockin.dst', `${tag}-shamrock.dst`],
  ] as const;
  const ids: string[] = [];
  const api = await apiRequest.newContext({ baseURL: SITE, extraHTTPHeaders: { Authorization: `Bearer ${person.token}` } });
  for (const [sample, name] of files) {
    const sent = await api.post(`/storage/v1/object/${person.team}/${name}`, {
      data: await readFile(path.join(here, '..', '..', 'testdata', 'designs', sample)),
      headers: { 'Content-Type': 'application/octet-stream' },
    });
    expect(sent.status(), await sent.text()).toBe(200);
    ids.push(((await sent.json()) as { Id: string }).Id);
  }
  await api.dispose();

  await test.step('see the library and one design online', async () => {
    await page.goto('/designs');
    for (const [, name] of files) await expect.poll(() => drawn(page, `Preview of ${name}`)).toBe(true);
    await page.getByRole('link', { name: `${tag}-star.pes` }).click();
    await expect(page.getByRole('heading', { level: 1, name: `${tag}-star.pes` })).toBeVisible();
    await expect.poll(() => drawn(page, `Preview of ${tag}-star.pes`)).toBe(true);
    await keptForOffline(page, `"preview","${ids[1]}"`);
    await expect.poll(() => keptCopy(page)).toContain(`"one","${ids[0]}"`);
  });

  await test.step('offline, after a browser restart, the list and the previews seen open, read-only', async () => {
    await browser.close();
    await server.stop();
    browser = await openBrowser(folder);
    ({ context, page } = browser);
    await context.setOffline(true);
    await expireSession(context);
    await page.goto('/designs');
    await expect(page.getByRole('heading', { level: 1, name: 'Design Library' })).toBeVisible();
    for (const [, name] of files) await expect.poll(() => drawn(page, `Preview of ${name}`)).toBe(true);
    await expect(page.getByLabel('Design files')).toBeDisabled();
    await expect(page.getByText('Uploading needs a connection: the library is read-only while this device is offline.')).toBeVisible();
    await expect(page.getByRole('button', { name: /^Rename / })).toHaveCount(0);
    await page.getByRole('link', { name: `${tag}-star.pes` }).click();
    await expect(page.getByRole('heading', { level: 1, name: `${tag}-star.pes` })).toBeVisible();
    await expect.poll(() => drawn(page, `Preview of ${tag}-star.pes`)).toBe(true);
    await expect(page.getByRole('region', { name: 'Colour blocks in stitching order' }).getByRole('listitem')).toHaveCount(2);
    await expect(page.getByRole('button', { name: 'Remove' })).toHaveCount(0);
  });
  await browser.close();
  await server.start();
});
