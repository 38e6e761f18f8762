import { expect, test } from '../fixtures/test';

// Runs against a copy of the release binary started with --env production (playwright.config.ts).

test('production hides the environment banner and the breakpoint helper', async ({ page }) => {
  await page.goto('/');

  await expect(page).toHaveTitle('Bobbin - Home');
  await expect(page.getByTestId('core-version')).toHaveText(/^core \d+\.\d+\.\d+$/);
  await expect(page.getByRole('complementary', { name: 'Environment' })).toHaveCount(0);
  await expect(page.getByTestId('breakpoint-helper')).toHaveCount(0);
});
