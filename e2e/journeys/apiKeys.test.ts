import { settingsSchema } from '@verbatim/contracts';
import type { Page } from 'playwright-core';
import { describe, expect, inject } from 'vitest';
import { createVerifiedAccount, sharedAccount } from '../support/accounts.js';
import { journey, phoneViewport } from '../support/journey.js';
import { signIn } from '../support/signIn.js';

/** A program calling the product's API with the key, from outside the browser. */
function callApi(path: string, headers: Record<string, string>): Promise<Response> {
  return fetch(new URL(`/api/v1${path}`, inject('baseUrl')), { headers });
}

function keysSection(page: Page) {
  return page.getByRole('region', { name: 'API keys' });
}

describe('API keys', () => {
  journey(
    'generate a key, copy it, see it listed, use it against the API, revoke it, and see it refused',
    async ({ page }) => {
      const account = await createVerifiedAccount();
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
        origin: inject('baseUrl'),
      });
      await signIn(page, account, '/speech-to-text-api');
      await page.getByRole('heading', { level: 1, name: 'Speech-to-text API' }).waitFor();
      // A new account starts with $5.00 of credit, shown in the sidebar.
      const sidebar = page.getByRole('navigation', { name: 'Main navigation' });
      await expect.poll(() => sidebar.getByTestId('credit-balance').textContent()).toBe('$5.00');
      await keysSection(page).getByText('No API keys yet').waitFor();

      await page.getByRole('button', { name: 'Generate API key' }).click();
      const modal = page.getByRole('dialog', { name: 'Generate API key' });
      await modal.getByLabel('Name (optional)').fill('Journey key');
      await modal.getByRole('button', { name: 'Generate' }).click();
      const secretBlock = modal.getByTestId('new-api-key');
      await secretBlock.waitFor();
      const secret = (await secretBlock.textContent())?.trim() ?? '';
      expect(secret).toMatch(/^vbt_live_[A-Za-z0-9_-]{49}$/);
      await page.getByText('API key generated').waitFor();
      expect(await modal.getByRole('button', { name: 'Generate' }).isDisabled()).toBe(true);

      await modal.getByRole('button', { name: 'Copy key' }).click();
      await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
      await modal.getByRole('button', { name: 'Done' }).click();
      await modal.waitFor({ state: 'detached' });

      const prefix = secret.slice(0, 16);
      const row = keysSection(page).getByRole('row', { name: /Journey key/ });
      await row.waitFor();
      expect(await row.textContent()).toContain(`${prefix}…`);
      expect(await row.getByText('Active').isVisible()).toBe(true);
      // The secret is nowhere on the page any more.
      expect(await page.getByText(secret).count()).toBe(0);

      const usages = await callApi('/limiter/usages', { authorization: `Bearer ${secret}` });
      expect(usages.status).toBe(200);
      const settings = await callApi('/settings', { 'x-api-key': secret });
      expect(settings.status).toBe(200);
      expect(settingsSchema.parse(await settings.json()).thirdPartyApi.credits).toEqual({
        ceiling: 500,
        currentUsage: 0,
      });
      // An API key cannot mint keys.
      const mint = await fetch(new URL('/api/v1/auth/api-keys', inject('baseUrl')), {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}` },
      });
      expect(mint.status).toBe(403);

      // The list shows when the key was last used.
      await page.reload();
      const usedRow = keysSection(page).getByRole('row', { name: /Journey key/ });
      await expect
        .poll(() => usedRow.locator('td').nth(4).textContent())
        .toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);

      await usedRow.getByRole('button', { name: `Revoke the key ${prefix}` }).click();
      const confirm = page.getByRole('dialog', { name: 'Revoke API key' });
      await confirm.getByRole('button', { name: 'Revoke' }).click();
      await page.getByText('API key revoked').waitFor();
      await keysSection(page).getByText('No API keys yet').waitFor();

      const refused = await callApi('/limiter/usages', { authorization: `Bearer ${secret}` });
      expect(refused.status).toBe(401);
      expect(((await refused.json()) as { code: string }).code).toBe('UNAUTHENTICATED');
    },
  );

  journey('shows copyable examples for this address, and fits a phone screen', async ({ page }) => {
    await page.setViewportSize(phoneViewport);
    await signIn(page, await sharedAccount(), '/speech-to-text-api');
    const example = page.getByTestId('auth-example-bearer');
    await example.waitFor();
    expect(await example.textContent()).toBe(
      `curl -H "Authorization: Bearer $VERBATIM_API_KEY" ${inject('baseUrl')}/api/v1/limiter/usages`,
    );
    // Nothing makes the page itself scroll sideways; wide tables scroll inside their frame.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.getByRole('button', { name: 'Generate API key' }).click();
    const modal = page.getByRole('dialog', { name: 'Generate API key' });
    const box = await modal.boundingBox();
    expect(box?.width ?? Infinity).toBeLessThanOrEqual(phoneViewport.width);
  });
});
