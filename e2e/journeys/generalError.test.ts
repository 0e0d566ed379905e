import { describe, expect } from 'vitest';
import { sharedAccount } from '../support/accounts.js';
import { journey } from '../support/journey.js';
import { signIn } from '../support/signIn.js';

const generalErrorMessage = 'General error! Something went wrong, please try again later or contact us';

describe('general error page', () => {
  journey(
    'a server failure leads to the general error page with its error id, Go Home leads back',
    async ({ page }) => {
      await signIn(page, await sharedAccount());
      await page.route('**/api/v1/ready', (route) =>
        route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({
            code: 'INTERNAL_ERROR',
            message: 'Internal server error',
            errorId: 'err-e2e-123',
          }),
        }),
      );

      await page.reload();

      await page.waitForURL((url) => url.pathname === '/error');
      await page.getByRole('heading', { name: generalErrorMessage }).waitFor();
      expect(await page.getByTestId('error-id').textContent()).toBe('err-e2e-123');

      // The server has recovered: home must load normally again.
      await page.unroute('**/api/v1/ready');
      await page.getByRole('link', { name: 'Go Home' }).click();

      await page.waitForURL((url) => url.pathname === '/home');
      await page.getByRole('heading', { name: /^Welcome to / }).waitFor();
    },
  );

  journey('opened directly, it shows the id from the address', async ({ page }) => {
    await page.goto('/error?id=x');

    await page.getByRole('heading', { name: generalErrorMessage }).waitFor();
    expect(await page.getByTestId('error-id').textContent()).toBe('x');
  });
});
