import type { Page } from 'playwright-core';
import type { Account } from './accounts.js';

/** Fills and sends the login form of the page that is open. */
export async function submitLogin(page: Page, { email, password }: Account): Promise<void> {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

/**
 * Opens `path` signed out, signs in on the login page it leads to, and waits until the console
 * is back on `path` (the remembered path). A sign-in that does not get there fails saying where the
 * page stayed and what it showed (a refusal of the server is said in an alert).
 */
export async function signIn(page: Page, account: Account, path = '/home'): Promise<void> {
  await page.goto(path);
  await page.waitForURL((url) => url.pathname === '/auth/login');
  await submitLogin(page, account);
  const target = new URL(path, 'http://x');
  try {
    await page.waitForURL((url) => url.pathname === target.pathname && url.search === target.search);
  } catch (error) {
    const alerts = await page
      .getByRole('alert')
      .allInnerTexts()
      .catch(() => []);
    throw new Error(
      `signing in did not lead to ${path}: the page is at ${page.url()}, showing ${JSON.stringify(alerts)}`,
      { cause: error },
    );
  }
}
