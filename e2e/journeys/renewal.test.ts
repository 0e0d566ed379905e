import type { Page } from 'playwright-core';
import { describe, expect, inject } from 'vitest';
import { createVerifiedAccount, journeyPassword, sharedAccount } from '../support/accounts.js';
import { journey } from '../support/journey.js';
import { signIn } from '../support/signIn.js';

/** The access token oidc-client-ts keeps for the console. */
async function storedAccessToken(page: Page): Promise<string | undefined> {
  return page.evaluate(() => {
    const key = Object.keys(localStorage).find((name) => name.startsWith('verbatim.auth.user:'));
    const user = key ? (JSON.parse(localStorage.getItem(key) ?? '{}') as { access_token?: string }) : {};
    return user.access_token;
  });
}

/**
 * The default access token lives 15 minutes and is renewed a minute before it expires. The page's
 * clock is fast-forwarded to that minute; the identity provider answers on its real clock.
 */
const justBeforeExpiry = '14:30';

describe('session renewal', () => {
  journey(
    'the access token is renewed silently with the refresh token, and the user stays',
    async ({ page }) => {
      await page.clock.install();
      await signIn(page, await sharedAccount());
      const first = await storedAccessToken(page);

      const renewal = page.waitForResponse((response) => new URL(response.url()).pathname === '/oidc/token');
      await page.clock.fastForward(justBeforeExpiry);
      expect((await renewal).status()).toBe(200);

      await expect.poll(() => storedAccessToken(page)).not.toBe(first);
      // The renewed token is good for the API: a fresh load stays signed in on /home.
      await page.reload();
      await page.getByRole('heading', { name: 'Getting started', level: 1 }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/home');
    },
  );

  journey('a session revoked elsewhere ends at its renewal, back on the login page', async ({ page }) => {
    const account = await createVerifiedAccount();
    await page.clock.install();
    await signIn(page, account);

    // A password change from another session revokes this one (spec: other sessions end).
    await changePasswordElsewhere(account.email);

    const renewal = page.waitForResponse((response) => new URL(response.url()).pathname === '/oidc/token');
    await page.clock.fastForward(justBeforeExpiry);
    expect((await renewal).status()).toBe(400);
    await page.waitForURL((url) => url.pathname === '/auth/login');
  });
});

async function changePasswordElsewhere(email: string): Promise<void> {
  const base = inject('baseUrl');
  const tokens = await fetch(new URL('/api/v1/auth/profile/verify', base), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_id: 'verbatim-console',
      grant_type: 'password',
      username: email,
      password: journeyPassword,
    }),
  });
  const { access_token: accessToken } = (await tokens.json()) as { access_token: string };
  const changed = await fetch(new URL('/api/v1/profile/password', base), {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
    body: JSON.stringify({ oldPass: journeyPassword, newPass: 'Renewed-Pass-2' }),
  });
  if (!changed.ok) throw new Error(`password change answered ${changed.status}: ${await changed.text()}`);
}
