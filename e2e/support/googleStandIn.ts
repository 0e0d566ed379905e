import type { Page } from 'playwright-core';
import { startGoogleStandIn } from '../../apps/server/src/test-support/external-providers.js';

/** The client the product is configured with at the stand-in; the secret only guards this test run. */
export const googleStandInClient = { clientId: 'verbatim-e2e', clientSecret: 'e2e-stand-in-secret' };

/**
 * A local OpenID Connect provider in Google's place (the server tests use the same one), and the
 * configuration that points the product at it. Any login name signs in as `<login>@gmail.test`.
 */
export async function startGoogleForProduct(productBaseUrl: string) {
  const standIn = await startGoogleStandIn({
    ...googleStandInClient,
    redirectUri: `${productBaseUrl}/auth/login/external`,
  });
  const env = {
    OAUTH_GOOGLE_CLIENT_ID: googleStandInClient.clientId,
    OAUTH_GOOGLE_CLIENT_SECRET: googleStandInClient.clientSecret,
    OAUTH_GOOGLE_ISSUER: standIn.url,
  };
  return { standIn, env };
}

/** Signs in at the stand-in's own pages (login, then consent), as a person would at Google. */
export async function signInAtGoogleStandIn(page: Page, login: string): Promise<void> {
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('anything');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}
