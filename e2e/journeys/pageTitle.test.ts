import type { Page } from 'playwright-core';
import { beforeAll, describe, expect } from 'vitest';
import { fetchConsoleConfig } from '../support/consoleConfig.js';
import { sharedAccount } from '../support/accounts.js';
import { journey } from '../support/journey.js';
import { signIn } from '../support/signIn.js';

let productName: string;

beforeAll(async () => {
  productName = (await fetchConsoleConfig()).productName;
});

async function metaDescription(page: Page) {
  const descriptions = page.locator('head meta[name="description"]');
  expect(await descriptions.count()).toBe(1);
  return descriptions.getAttribute('content');
}

describe('page title', () => {
  journey('names the screen and the product on every route', async ({ page }) => {
    await page.goto('/auth/login');
    await expect.poll(() => page.title(), { timeout: 10_000 }).toBe(`Log in · ${productName}`);
    await page.goto('/auth/register');
    await expect.poll(() => page.title(), { timeout: 10_000 }).toBe(`Register · ${productName}`);

    await signIn(page, await sharedAccount());
    await expect.poll(() => page.title(), { timeout: 10_000 }).toBe(`Getting started · ${productName}`);
    expect(await metaDescription(page)).toMatch(/^Start transcribing speech/);

    await page.goto('/error?id=abc');
    await expect.poll(() => page.title(), { timeout: 10_000 }).toBe(`Error · ${productName}`);

    await page.goto('/nowhere');
    await expect.poll(() => page.title(), { timeout: 10_000 }).toBe(`Page not found · ${productName}`);
    expect(await metaDescription(page)).toBe('The page you were looking for does not exist.');
  });

  journey('the root address leads home when signed in', async ({ page }) => {
    await signIn(page, await sharedAccount());
    await page.goto('/');

    await page.waitForURL((url) => url.pathname === '/home');
    await expect.poll(() => page.title(), { timeout: 10_000 }).toBe(`Getting started · ${productName}`);
  });
});
