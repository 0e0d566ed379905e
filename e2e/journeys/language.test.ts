import type { Page } from 'playwright-core';
import { describe, expect, inject } from 'vitest';
import { sharedAccount } from '../support/accounts.js';
import { journey } from '../support/journey.js';
import { signIn } from '../support/signIn.js';

function htmlLang(page: Page) {
  return page.evaluate(() => document.documentElement.lang);
}

/** Waits for the language switch to save the choice in the account's settings (PUT /settings). */
function settingsSaved(page: Page) {
  return page.waitForResponse(
    (response) => response.url().endsWith('/api/v1/settings') && response.request().method() === 'PUT',
  );
}

describe('interface language', () => {
  journey('switching to French translates the screen and survives a reload', async ({ page }) => {
    await signIn(page, await sharedAccount());
    await page.getByRole('heading', { name: /^Welcome to / }).waitFor();
    expect(await htmlLang(page)).toBe('en');

    const savedFrench = settingsSaved(page);
    await page.getByText('FR', { exact: true }).click();
    expect((await savedFrench).status()).toBe(200);

    await page.getByRole('heading', { name: /^Bienvenue sur / }).waitFor();
    await page.getByRole('navigation', { name: 'Navigation principale' }).getByText('Premiers pas').waitFor();
    expect(await page.getByRole('region', { name: 'État du système' }).isVisible()).toBe(true);
    expect(await htmlLang(page)).toBe('fr');

    await page.reload();

    await page.getByRole('heading', { name: /^Bienvenue sur / }).waitFor();
    expect(await htmlLang(page)).toBe('fr');
    await expect.poll(() => page.title()).toMatch(/^Premiers pas · /);

    // The choice is saved in the account's settings: a sign-in elsewhere starts in French.
    const elsewhere = await page
      .context()
      .browser()
      ?.newContext({ baseURL: inject('baseUrl') });
    if (!elsewhere) throw new Error('no browser');
    try {
      const otherPage = await elsewhere.newPage();
      await signIn(otherPage, await sharedAccount());
      await otherPage.getByRole('heading', { name: /^Bienvenue sur / }).waitFor();
    } finally {
      await elsewhere.close();
    }

    const savedEnglish = settingsSaved(page);
    await page.getByText('EN', { exact: true }).click();
    expect((await savedEnglish).status()).toBe(200);

    await page.getByRole('heading', { name: /^Welcome to / }).waitFor();
    expect(await htmlLang(page)).toBe('en');
  });

  journey('the not-found screen follows the chosen language', async ({ page }) => {
    await signIn(page, await sharedAccount());
    await page.getByText('FR', { exact: true }).click();
    await page.getByRole('heading', { name: /^Bienvenue sur / }).waitFor();

    await page.goto('/nulle-part');

    await page.getByRole('heading', { name: "Nous n'avons pas trouvé la page que vous cherchiez" }).waitFor();
    await page.getByRole('link', { name: 'Retour' }).waitFor();

    // Back to English, which the other journeys of the shared account expect after signing in.
    await page.goto('/home');
    const saved = settingsSaved(page);
    await page.getByText('EN', { exact: true }).click();
    expect((await saved).status()).toBe(200);
  });
});
