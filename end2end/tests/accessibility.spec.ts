// Issue 52, point 7: "Accessible names contain the visible label, so axe's
// `label-content-name-mismatch` rule is clean on every page" (WCAG 2.5.3, Label in Name: a
// control that shows words and is named by aria-label or aria-labelledby has a name holding those
// words, so a voice user can say what they see). Every page is opened with entries on it, at the
// desktop's 1280 px, at 1440 px (where the header shows the account's name beside its initial) and
// on a 375 px phone, and checked by axe.
import { AxeBuilder } from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';

import { asTheApp } from '../fixtures/accounts';
import { expect, test } from '../fixtures/test';

const RULE = 'label-content-name-mismatch';
const WIDTHS = [1280, 1440, 375] as const;

/**
 * A page to check. `word` is one no other test uses, a new one each test: the worker's tests share
 * its team, so the entries a test adds are named with it, and found by it.
 */
interface PageToCheck {
  /** What a failure calls it. */
  name: string;
  /** Where it is; for a page that shows entries, a function that adds them through the API first. */
  path: string | ((page: Page, word: string) => Promise<string>);
  /** Its h1, shown once it has loaded. */
  heading: string | RegExp | ((word: string) => string);
  /** What else must be on the page before it is checked (its entries, loaded after the h1). */
  ready?: (page: Page, word: string) => Locator;
  /** Opens what the page keeps closed, so that it is checked too. */
  open?: (page: Page) => Promise<void>;
}

/**
 * Runs the rule on the page as it stands and fails, naming `where`, with each control whose name
 * leaves out its visible label.
 */
async function expectLabelsInNames(page: Page, where: string) {
  const results = await new AxeBuilder({ page }).withRules([RULE]).analyze();
  // axe tags the rule `experimental` and leaves such rules out of a run by tag; asked for by id
  // (`runOnly` of type `rule`, which withRules sends) it runs, and then it is in one of these lists.
  const ran = [...results.passes, ...results.incomplete, ...results.violations, ...results.inapplicable].map((result) => result.id);
  expect(ran, `${where}: axe ran ${RULE}`).toContain(RULE);
  const violations = results.violations.flatMap((violation) =>
    violation.nodes.map((node) => `${node.target.join(' ')}: ${node.html} (${node.failureSummary ?? violation.help})`),
  );
  expect(violations, `${where}: controls whose accessible name leaves out their visible label`).toEqual([]);
}

/** Opens `entry` at each width, waits for it to load, and checks it. */
async function checkAtEveryWidth(page: Page, entry: PageToCheck) {
  // Three loads of the page and three runs of axe.
  test.slow();
  const word = `Axe${Math.random().toString(36).slice(2, 8)}`;
  const path = typeof entry.path === 'string' ? entry.path : await entry.path(page, word);
  const heading = typeof entry.heading === 'function' ? entry.heading(word) : entry.heading;
  for (const width of WIDTHS) {
    const where = `${entry.name} (${path}) at ${width} px`;
    await page.setViewportSize({ width, height: 900 });
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading }), where).toBeVisible();
    // What the page loads is on it before it is checked (as layout.spec.ts waits).
    await expect(page.locator('[role="status"]').filter({ hasText: /^(Loading|Reading|Counting)/ }), where).toHaveCount(0);
    // The thread converter's catalogue (160 KB, then decoded) can take more than 10 s on a busy machine.
    if (entry.ready) await expect(entry.ready(page, word), where).toBeVisible({ timeout: 15_000 });
    if (entry.open) await entry.open(page);
    await expectLabelsInNames(page, where);
  }
}

/** The public id of the signed-in person's first team (the worker's own). */
async function firstTeam(page: Page): Promise<string> {
  const teams = (await (await page.request.get('/api/v2/teams')).json()) as { teams: { public_id: string }[] };
  return teams.teams[0]?.public_id ?? '';
}

/**
 * Two custom threads named with `word`: one out of stock (so low: on the shopping list and the
 * dashboard too), one in stock. The id of the first.
 */
async function addThreads(page: Page, word: string): Promise<string> {
  const team = await firstTeam(page);
  const ids: string[] = [];
  for (const thread of [
    { name: `${word} poppy red`, colour: '#ED171F', quantity: 0, reorder_point: 2, location: 'Drawer A' },
    { name: `${word} snow white`, colour: '#F0F0F0', quantity: 3, location: 'Drawer B' },
  ]) {
    const added = await page.request.post(`/api/v2/teams/${team}/threads`, { data: thread, headers: asTheApp() });
    expect(added.status(), await added.text()).toBe(201);
    ids.push(((await added.json()) as { thread: { id: string } }).thread.id);
  }
  return ids[0] ?? '';
}

const machineName = (word: string) => `Tajima TMEZ ${word}`;

/** A machine named with `word`; its id. */
async function addMachine(page: Page, word: string): Promise<string> {
  const team = await firstTeam(page);
  const created = await page.request.post(`/api/v2/teams/${team}/machines`, {
    data: { name: machineName(word), heads: 6, needles_per_head: 15, typical_spm: 850 },
    headers: asTheApp(),
  });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { machine: { id: string } }).machine.id;
}

const SIGNED_IN: PageToCheck[] = [
  {
    name: 'the dashboard',
    path: async (page, word) => {
      await addThreads(page, word);
      await addMachine(page, word);
      return '/dashboard';
    },
    heading: 'Dashboard',
  },
  {
    name: 'the account menu',
    path: '/dashboard',
    heading: 'Dashboard',
    open: async (page) => {
      await page.getByRole('button', { name: /^Account: / }).click();
      await expect(page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: /^My Invites/ })).toBeVisible();
    },
  },
  { name: 'the profile', path: '/profile', heading: 'Your account' },
  { name: 'the profile, security', path: '/profile?tab=security', heading: 'Your account' },
  { name: 'the profile, notifications', path: '/profile?tab=notifications', heading: 'Your account' },
  { name: 'the profile, my invites', path: '/profile?tab=invites', heading: 'Your account' },
  { name: 'the new password (reset)', path: '/reset', heading: 'Choose a new password' },
  { name: 'the team', path: '/team', heading: /Team$/ },
  { name: 'the contact page', path: '/contact', heading: 'Contact' },
  {
    name: 'the thread converter',
    path: '/tools/thread-converter',
    heading: 'Thread converter',
    ready: (page) => page.getByRole('list', { name: 'Chosen lines' }),
  },
  {
    name: 'the thread converter with matches',
    path: '/tools/thread-converter?thread=madeira-polyneon:1800&to=sulky-rayon,isacord-polyester',
    heading: 'Thread converter',
    ready: (page) => page.getByRole('region', { name: 'Sulky Rayon' }).getByRole('listitem').first(),
  },
  { name: 'the inventory hub', path: '/inventory', heading: 'Calculators' },
  {
    name: 'the thread inventory',
    path: async (page, word) => {
      await addThreads(page, word);
      return `/inventory/threads?q=${word}`;
    },
    heading: 'Thread Inventory',
    ready: (page, word) => page.getByRole('button', { name: `+1: one more of ${word} snow white`, exact: true }),
  },
  {
    name: 'a thread',
    path: async (page, word) => `/inventory/threads/${await addThreads(page, word)}`,
    heading: 'Thread Details',
    ready: (page) => page.getByRole('form', { name: 'Thread', exact: true }),
  },
  {
    name: 'the shopping list',
    path: async (page, word) => {
      await addThreads(page, word);
      return '/inventory/shopping-list';
    },
    heading: 'Shopping List',
    ready: (page, word) => page.getByRole('link', { name: `${word} poppy red`, exact: true }),
  },
  { name: 'the stock history', path: '/inventory/history', heading: 'Stock History' },
  {
    name: 'the machines',
    path: async (page, word) => {
      await addMachine(page, word);
      return '/inventory/machines';
    },
    heading: 'Machines',
    ready: (page, word) => page.getByRole('link', { name: machineName(word), exact: true }),
  },
  {
    name: 'a machine',
    path: async (page, word) => `/inventory/machines/${await addMachine(page, word)}`,
    heading: machineName,
  },
  { name: 'the calculators', path: '/calculators', heading: 'Calculators' },
  { name: 'the pricing calculator', path: '/calculators/pricing', heading: 'Pricing Calculator' },
  { name: 'the design library', path: '/designs', heading: 'Design Library' },
  { name: 'the quotes', path: '/quotes', heading: 'Quotes' },
  { name: 'the jobs', path: '/jobs', heading: 'Jobs' },
];

const PUBLIC: PageToCheck[] = [
  { name: 'the landing page', path: '/', heading: 'Every spool, machine and quote in one place' },
  { name: 'the login page', path: '/login', heading: 'Login' },
  { name: 'the register page', path: '/register', heading: 'Register' },
  { name: 'the password reset (forgot password)', path: '/reset', heading: 'Forgot Password' },
];

/** A path no route has: a 404 inside the default layout. */
const NOT_FOUND: PageToCheck = { name: 'the not-found page', path: '/no/such/page', heading: 'Page Not Found' };
/**
 * A thread's page with an id the route refuses: the error page in place of the app, the 404 a
 * visitor who is not logged in gets too (a path no route has would send them to the login page).
 */
const REFUSED: PageToCheck = { name: 'the error page (404)', path: '/inventory/threads/not-a-thread', heading: 'Page Not Found' };

test.describe('signed in', () => {
  test.use({ signedIn: true });

  for (const entry of SIGNED_IN) {
    test(`${entry.name}: every control's name holds its visible label`, async ({ page }) => {
      await checkAtEveryWidth(page, entry);
    });
  }

  test.describe(() => {
    // The browser logs the 404 of the document as a failed load.
    test.use({ allowFailedRequests: true });

    test(`${NOT_FOUND.name}, signed in: every control's name holds its visible label`, async ({ page }) => {
      await checkAtEveryWidth(page, NOT_FOUND);
    });
  });
});

test.describe('signed out', () => {
  for (const entry of PUBLIC) {
    test(`${entry.name}: every control's name holds its visible label`, async ({ page }) => {
      await checkAtEveryWidth(page, entry);
    });
  }

  test(`${REFUSED.name}, signed out: every control's name holds its visible label`, async ({ page }) => {
    await checkAtEveryWidth(page, REFUSED);
  });
});
