import { describe, expect } from 'vitest';
import { sharedAccount } from '../support/accounts.js';
import { journey } from '../support/journey.js';
import { signIn } from '../support/signIn.js';

describe('session', () => {
  journey('signed out, / leads to the login page', async ({ page }) => {
    await page.goto('/');
    await page.waitForURL((url) => url.pathname === '/auth/login');
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
  });

  journey('a deep link to a protected route survives the sign-in, query included', async ({ page }) => {
    await signIn(page, await sharedAccount(), '/home?tab=x');

    expect(new URL(page.url()).search).toBe('?tab=x');
    await page.getByRole('heading', { name: 'Getting started', level: 1 }).waitFor();
  });

  journey('signed in, the login page leads home; logout ends the session', async ({ page }) => {
    const account = await sharedAccount();
    await signIn(page, account);

    await page.goto('/auth/login');
    await page.waitForURL((url) => url.pathname === '/home');

    await page.getByRole('button', { name: `Account menu of ${account.email}` }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();

    await page.waitForURL((url) => url.pathname === '/auth/login');
    await page.goto('/home');
    await page.waitForURL((url) => url.pathname === '/auth/login');
    // The refresh token was revoked and nothing is left in storage.
    const stored = await page.evaluate(() =>
      Object.keys(localStorage).filter((key) => key.startsWith('verbatim.auth.')),
    );
    expect(stored.filter((key) => key.includes('user'))).toEqual([]);
  });
});
