import { describe, expect, inject } from 'vitest';
import { createVerifiedAccount } from '../support/accounts.js';
import { journey } from '../support/journey.js';
import { submitLogin } from '../support/signIn.js';

describe('the console opened at another address than PUBLIC_URL', () => {
  journey(
    'opened at 127.0.0.1 while PUBLIC_URL names localhost, it moves there, signs in and lands on /home',
    async ({ page }) => {
      // The product server runs with the default PUBLIC_URL, http://localhost:PORT.
      const publicUrl = new URL(inject('baseUrl'));
      const byAddress = `http://127.0.0.1:${publicUrl.port}`;
      const account = await createVerifiedAccount();

      const opened = await page.goto(`${byAddress}/home?from=lan`);
      // One redirect to PUBLIC_URL, keeping path and query; then the console asks for a sign-in.
      expect(opened?.url()).toBe(`${publicUrl.origin}/home?from=lan`);
      expect((await opened?.request().redirectedFrom()?.response())?.status()).toBe(302);
      await page.waitForURL((url) => url.origin === publicUrl.origin && url.pathname === '/auth/login');

      await submitLogin(page, account);
      await page.waitForURL((url) => url.origin === publicUrl.origin && url.pathname === '/home');
      await page.getByRole('heading', { name: /Welcome to/ }).waitFor();
      expect(await page.getByText('General error').count()).toBe(0);
    },
  );
});
