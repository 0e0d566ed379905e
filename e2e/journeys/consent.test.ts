import { createHash, randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, inject } from 'vitest';
import { sharedAccount } from '../support/accounts.js';
import { signInAtGoogleStandIn } from '../support/googleStandIn.js';
import { journey } from '../support/journey.js';
import { submitLogin } from '../support/signIn.js';
import {
  thirdPartyAppCallbackPath,
  thirdPartyAppClientId,
  thirdPartyAppName,
} from '../support/thirdPartyApp.js';

const callbackUrl = () => new URL(thirdPartyAppCallbackPath, inject('baseUrl')).toString();

/** Opens the identity provider's authorization endpoint as the third-party application would. */
async function startAuthorization(page: Page) {
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(8).toString('hex');
  const query = new URLSearchParams({
    client_id: thirdPartyAppClientId,
    response_type: 'code',
    scope: 'openid email',
    redirect_uri: callbackUrl(),
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state,
  });
  await page.goto(`/oidc/auth?${query}`);
  await page.waitForURL((url) => url.pathname.startsWith('/interaction/'));
  return { verifier, state };
}

const atCallback = (url: URL) => url.pathname === thirdPartyAppCallbackPath;

describe('third-party application', () => {
  journey(
    'signs in, asks "Allow user access to:", and on Allow the app gets a code that works',
    async ({ page }) => {
      const { verifier, state } = await startAuthorization(page);
      await page.getByText(`Sign in to continue to ${thirdPartyAppName}.`).waitFor();
      await submitLogin(page, await sharedAccount());

      await page.getByRole('heading', { name: `${thirdPartyAppName} asks for access` }).waitFor();
      await page.getByText('Allow user access to:').waitFor();
      await page.getByText('Your e-mail address').waitFor();
      await page.getByRole('button', { name: 'Allow' }).click();

      await page.waitForURL(atCallback);
      const returned = new URL(page.url()).searchParams;
      expect(returned.get('state')).toBe(state);
      const tokens = await fetch(new URL('/oidc/token', inject('baseUrl')), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          client_id: thirdPartyAppClientId,
          code: returned.get('code') ?? '',
          redirect_uri: callbackUrl(),
          code_verifier: verifier,
        }),
      });
      expect(tokens.status).toBe(200);
      expect(await tokens.json()).toHaveProperty('id_token');
    },
  );

  journey('signs in to the app with Google at its sign-in step, then asks for consent', async ({ page }) => {
    await startAuthorization(page);
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    await signInAtGoogleStandIn(page, `app-${randomBytes(4).toString('hex')}`);

    await page.getByRole('heading', { name: `${thirdPartyAppName} asks for access` }).waitFor();
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL(atCallback);
    expect(new URL(page.url()).searchParams.has('code')).toBe(true);
  });

  journey('on Deny the app is told access_denied and gets no code', async ({ page }) => {
    await startAuthorization(page);
    await submitLogin(page, await sharedAccount());
    await page.getByRole('button', { name: 'Deny' }).click();

    await page.waitForURL(atCallback);
    const returned = new URL(page.url()).searchParams;
    expect(returned.get('error')).toBe('access_denied');
    expect(returned.has('code')).toBe(false);
  });
});
