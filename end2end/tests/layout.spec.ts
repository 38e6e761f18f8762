// Issue 52: "At 1280 px the thread table cuts off its Location column, half of each +1 button,
// and the 'waiting to be sent' marker. At 1280 px every column and button of every data page is
// fully visible, with no horizontal scroll. Wider screens use their width. Phones stay as they
// are." Each data page is opened with entries whose texts are long (as a real shop's are), at
// 1280 px and at 375 px, and looked at: a screenshot of each is kept with the test's results.
import type { Page } from '@playwright/test';

import { asTheApp } from '../fixtures/accounts';
import { logIn, newAccount } from '../fixtures/teams';
import { expect, test } from '../fixtures/test';

const PAGES = [
  ['/dashboard', 'Dashboard'],
  ['/inventory/threads', 'Thread Inventory'],
  ['/inventory/shopping-list', 'Shopping List'],
  ['/inventory/history', 'Stock History'],
  ['/inventory/machines', 'Machines'],
  ['/designs', 'Design Library'],
  ['/quotes', 'Quotes'],
  ['/jobs', 'Jobs'],
  ['/team', /Team$/],
  ['/calculators/pricing', 'Pricing Calculator'],
  ['/tools/thread-converter', 'Thread converter'],
] as const;

/** A team with entries on every data page, their texts as long as a shop's get. */
async function fillTheTeam(page: Page): Promise<string> {
  const teams = (await (await page.request.get('/api/v2/teams')).json()) as { teams: { public_id: string }[] };
  const team = teams.teams[0]?.public_id ?? '';
  const post = async (path: string, data: unknown) => {
    const answer = await page.request.post(`/api/v2/teams/${team}/${path}`, { data, headers: asTheApp() });
    expect(answer.status(), `${path}: ${await answer.text()}`).toBeLessThan(300);
    return (await answer.json()) as Record<string, { id: string }>;
  };
  for (const [code, quantity] of [
    ['1800', 0],
    ['1801', 12],
    ['1802', 3],
  ] as const) {
    await post('threads', {
      line: 'madeira-polyneon',
      code,
      quantity,
      reorder_point: 2,
      location: 'Back room, cabinet 3, drawer 12 (left)',
      cost_per_spool: 4.25,
    });
  }
  await post('threads', {
    name: 'Custom metallic gold with a rather long name for a thread',
    colour: '#D4AF37',
    quantity: 1,
    location: 'Top shelf by the window',
  });
  await post('machines', { name: 'Tajima TMEZ-SC 6-head, bay 2 by the loading door', heads: 6, needles_per_head: 15 });
  return team;
}

/** What of the page reaches past the window's right edge: the page itself, a scrolled table, or a control. */
async function overflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > width) found.push(`the page is ${document.documentElement.scrollWidth} px wide`);
    for (const element of document.querySelectorAll<HTMLElement>('main *')) {
      const style = getComputedStyle(element);
      if (style.display === 'none' || style.visibility === 'hidden') continue;
      if ((style.overflowX === 'auto' || style.overflowX === 'scroll') && element.scrollWidth > element.clientWidth + 1) {
        found.push(
          `${element.tagName.toLowerCase()}.${element.className} scrolls sideways (${element.scrollWidth} > ${element.clientWidth})`,
        );
      }
      if (element.matches('button, a, input, select, textarea, th, td, .chip')) {
        const box = element.getBoundingClientRect();
        if (box.width > 0 && (box.right > width + 0.5 || box.left < -0.5)) {
          found.push(`${element.tagName.toLowerCase()} "${element.textContent.trim().slice(0, 40)}" reaches ${Math.round(box.right)} px`);
        }
      }
    }
    return found;
  });
}

test('at 1280 px every data page shows all its columns and buttons without sideways scrolling; at 375 px none scrolls sideways', async ({
  page,
}, testInfo) => {
  test.slow();
  const account = await newAccount(testInfo, 'layout');
  await logIn(page, account);
  await fillTheTeam(page);
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    for (const [path, heading] of PAGES) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      // What the page loads is on it before it is measured.
      await expect(page.locator('[role="status"]').filter({ hasText: /^(Loading|Reading|Counting)/ })).toHaveCount(0);
      if (path === '/inventory/threads') await expect(page.getByRole('button', { name: /one more of /i }).first()).toBeVisible();
      await page.screenshot({ path: testInfo.outputPath(`${path.slice(1).replaceAll('/', '-')}-${width}.png`), fullPage: true });
      if (width === 1280) {
        expect(await overflow(page), `${path} at ${width} px`).toEqual([]);
      } else {
        // A phone's tables may scroll within themselves; the page does not.
        expect(await page.evaluate(() => document.documentElement.scrollWidth), `${path} at ${width} px`).toBeLessThanOrEqual(width);
      }
    }
  }

  await test.step('a wider screen uses its width: the thread table grows with the window', async () => {
    await page.goto('/inventory/threads');
    const table = page.getByRole('region', { name: 'Threads' });
    await page.setViewportSize({ width: 1280, height: 900 });
    const at1280 = (await table.boundingBox())?.width ?? 0;
    await page.setViewportSize({ width: 1920, height: 900 });
    const at1920 = (await table.boundingBox())?.width ?? 0;
    expect(at1920).toBeGreaterThan(at1280 + 300);
  });
});
