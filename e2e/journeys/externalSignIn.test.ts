import { randomBytes } from 'node:crypto';
import { describe, expect, inject } from 'vitest';
import { signInAtGoogleStandIn } from '../support/googleStandIn.js';
import { journey } from '../support/journey.js';

describe('third-party sign-in', () => {
  journey(
    'sign in with Google at the local stand-in: a new account, signed in on /home',
    async ({ page }) => {
      const productOrigin = new URL(inject('baseUrl')).origin;
      const login = `ext-${randomBytes(4).toString('hex')}`;
      await page.goto('/auth/login');
      // Only Google is configured for the journeys: GitHub's button must not be offered.
      await page.getByRole('button', { name: 'Continue with Google' }).waitFor();
      expect(await page.getByRole('button', { name: 'Continue with GitHub' }).count()).toBe(0);

      await page.getByRole('button', { name: 'Continue with Google' }).click();
      await page.waitForURL((url) => url.origin !== productOrigin);
      await signInAtGoogleStandIn(page, login);

      await page.waitForURL((url) => url.pathname === '/home', { timeout: 15_000 });
      await page.getByRole('button', { name: `Account menu of ${login}@gmail.test` }).waitFor();
    },
  );

  journey('a return from the provider that this tab did not start is refused', async ({ page }) => {
    await page.goto('/auth/login/external?state=google.not-started-in-this-tab&code=stolen');

    await page.waitForURL((url) => url.pathname === '/auth/login');
    await page.getByText('This sign-in was not started from this browser tab. Please try again.').waitFor();
  });
});
