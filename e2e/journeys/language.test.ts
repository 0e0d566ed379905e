import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { sharedAccount } from '../support/accounts.js';
import { journey } from '../support/journey.js';
import { signIn } from '../support/signIn.js';

function htmlLang(page: Page) {
  return page.evaluate(() => document.documentElement.lang);
}

describe('interface language', () => {
  journey('switching to French translates the screen and survives a reload', async ({ page }) => {
    await signIn(page, await sharedAccount());
    await page.getByRole('heading', { name: /^Welcome to / }).waitFor();
    expect(await htmlLang(page)).toBe('en');

    await page.getByText('FR', { exact: true }).click();

    await page.getByRole('heading', { name: /^Bienvenue sur / }).waitFor();
    await page.getByRole('navigation', { name: 'Navigation principale' }).getByText('Premiers pas').waitFor();
    expect(await page.getByRole('region', { name: 'État du système' }).isVisible()).toBe(true);
    expect(await htmlLang(page)).toBe('fr');

    await page.reload();

    await page.getByRole('heading', { name: /^Bienvenue sur / }).waitFor();
    expect(await htmlLang(page)).toBe('fr');
    await expect.poll(() => page.title()).toMatch(/^Premiers pas · /);

    await page.getByText('EN', { exact: true }).click();

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
  });
});
