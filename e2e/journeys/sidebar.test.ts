import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { sharedAccount } from '../support/accounts.js';
import { journey, phoneViewport } from '../support/journey.js';
import { signIn } from '../support/signIn.js';

function sidebar(page: Page) {
  return page.getByRole('navigation', { name: 'Main navigation' });
}

async function sidebarWidth(page: Page): Promise<number> {
  return (await sidebar(page).boundingBox())?.width ?? 0;
}

describe('sidebar', () => {
  journey('collapses to a rail and expands again on a desktop screen', async ({ page }) => {
    await signIn(page, await sharedAccount());
    await sidebar(page).getByRole('link', { name: 'Getting started' }).waitFor();
    expect(await sidebarWidth(page)).toBeGreaterThan(200);

    await page.getByRole('button', { name: 'Collapse sidebar' }).click();

    await expect.poll(() => sidebarWidth(page)).toBeLessThan(100);
    expect(await sidebar(page).isVisible()).toBe(true);
    // The label moved into the accessible name; the visible text is gone.
    expect(await sidebar(page).getByText('Getting started').count()).toBe(0);
    await sidebar(page).getByRole('link', { name: 'Getting started' }).waitFor();

    await page.getByRole('button', { name: 'Expand sidebar' }).click();

    await expect.poll(() => sidebarWidth(page)).toBeGreaterThan(200);
    await sidebar(page).getByText('Getting started').waitFor();
  });

  journey(
    'is hidden on a phone until the hamburger opens it, and closes after choosing a link',
    async ({ page }) => {
      await page.setViewportSize(phoneViewport);
      await signIn(page, await sharedAccount());
      await page.getByRole('heading', { name: /^Welcome to / }).waitFor();
      const hamburger = page.getByRole('button', { name: 'Open navigation menu' });

      expect(await sidebar(page).isVisible()).toBe(false);
      expect(await page.getByRole('button', { name: 'Collapse sidebar' }).isVisible()).toBe(false);

      await hamburger.click();

      await sidebar(page).waitFor({ state: 'visible' });
      // It slides in over the page at full width.
      await expect.poll(async () => (await sidebar(page).boundingBox())?.x).toBe(0);
      expect((await sidebar(page).boundingBox())?.width).toBe(phoneViewport.width);

      await sidebar(page).getByRole('link', { name: 'Getting started' }).click();

      await sidebar(page).waitFor({ state: 'hidden' });
      await page.getByRole('button', { name: 'Open navigation menu' }).waitFor();
    },
  );
});
