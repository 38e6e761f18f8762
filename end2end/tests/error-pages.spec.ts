import type { Page } from '@playwright/test';

import { expect, test } from '../fixtures/test';

// "A fatal or unhandled error shows the error page; crawler user agents do not get it"
// (docs/behaviour.md, "Error pages"). The errors are real ones of the browser's: a promise
// rejected in the page and never handled, an error thrown in a timer. The browser reports them
// as uncaught and the app logs them, hence `allowPageErrors`.
test.use({ allowPageErrors: true });

const GOOGLEBOT =
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Googlebot/2.1; +http://www.google.com/bot.html) Chrome/131.0.6778.69 Safari/537.36';

async function openLandingPage(page: Page) {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Every spool, machine and quote in one place' })).toBeVisible();
}

/**
 * Waits until React has rendered what the app made of an error: a change of state made outside
 * React's events is rendered in a task of its own, after the browser reported the error.
 */
async function reactHasRendered(page: Page) {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
}

/** Resolves once the app has logged an error nothing handled (app-react/src/app/fatal-error.tsx). */
function appLogsUnhandled(page: Page) {
  return page.waitForEvent('console', (message) => message.type() === 'error' && message.text().startsWith('Unhandled error'));
}

test('a promise rejected and never handled shows the error page in place of the app', async ({ page }) => {
  await openLandingPage(page);

  await page.evaluate(() => {
    void Promise.reject(new Error('an unhandled rejection, on purpose'));
  });

  await expect(page.getByRole('heading', { name: 'Internal Server Error' })).toBeVisible();
  await expect(page).toHaveTitle('Bobbin - Internal Server Error');
  await expect(page.getByText('Every spool, machine and quote in one place')).toHaveCount(0);
  // A plain link: the page loads afresh, and the app works again.
  await page.getByRole('link', { name: 'Go to the home page' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Every spool, machine and quote in one place' })).toBeVisible();
});

test('an error thrown in a timer shows the error page', async ({ page }) => {
  await openLandingPage(page);

  await page.evaluate(() => {
    setTimeout(() => {
      throw new Error('an uncaught error, on purpose');
    }, 0);
  });

  await expect(page.getByRole('heading', { name: 'Internal Server Error' })).toBeVisible();
});

test('a cancelled fetch left unhandled (an AbortError) is not fatal', async ({ page }) => {
  await openLandingPage(page);
  const uncaught = page.waitForEvent('pageerror');

  await page.evaluate(() => {
    const controller = new AbortController();
    void fetch('/healthz', { signal: controller.signal });
    controller.abort();
  });

  const error = await uncaught;
  expect(`${error.name}: ${error.message}`).toMatch(/abort/i);
  await reactHasRendered(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Every spool, machine and quote in one place' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Internal Server Error' })).toHaveCount(0);
});

test.describe('a crawler', () => {
  test.use({ userAgent: GOOGLEBOT });

  test('keeps the page as it is after an unhandled error', async ({ page }) => {
    await openLandingPage(page);
    const logged = appLogsUnhandled(page);

    await page.evaluate(() => {
      void Promise.reject(new Error('an unhandled rejection, on purpose'));
      setTimeout(() => {
        throw new Error('an uncaught error, on purpose');
      }, 0);
    });

    // The app heard of the errors, and chose to leave the page alone.
    expect((await logged).text()).toContain('a crawler keeps the page as it is');
    await reactHasRendered(page);
    await expect(page.getByRole('heading', { level: 1, name: 'Every spool, machine and quote in one place' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Internal Server Error' })).toHaveCount(0);
    await expect(page).toHaveTitle('Bobbin - Home');
  });
});
