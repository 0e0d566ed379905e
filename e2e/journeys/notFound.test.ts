import { describe, expect } from 'vitest';
import { journey } from '../support/journey.js';

const notFoundMessage = "We couldn't find the page you were looking for";

describe('not-found screen', () => {
  journey(
    'shows the not-found text for an unknown path, and Go back returns to the previous page',
    async ({ page }) => {
      await page.goto('/error?id=previous-page');
      await page.getByTestId('error-id').waitFor();

      await page.goto('/no/such/page');
      await page.getByRole('heading', { name: notFoundMessage }).waitFor();
      await page.getByRole('link', { name: 'Go back' }).click();

      await page.waitForURL((url) => url.pathname === '/error' && url.search === '?id=previous-page');
      expect(await page.getByTestId('error-id').textContent()).toBe('previous-page');
    },
  );

  // "No previous page" (Go back leads home) is covered by the unit tests: every Playwright page
  // starts on about:blank, so a browser tab here always has one.
});
