import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { createVerifiedAccount, sharedAccount } from '../support/accounts.js';
import { journey } from '../support/journey.js';
import { signIn, submitLogin } from '../support/signIn.js';

/** A small JPEG drawn in the page with a canvas, so no image ships with the tests. */
async function jpegFromCanvas(page: Page): Promise<Buffer> {
  const dataUrl = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 64;
    canvas.height = 64;
    const context = canvas.getContext('2d');
    if (!context) throw new Error('no 2d context');
    context.fillStyle = '#4c6ef5';
    context.fillRect(0, 0, 64, 64);
    return canvas.toDataURL('image/jpeg', 0.9);
  });
  return Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
}

async function openUserMenuItem(page: Page, email: string, item: string) {
  await page.getByRole('button', { name: `Account menu of ${email}` }).click();
  await page.getByRole('menuitem', { name: item }).click();
}

describe('profile and password', () => {
  journey('edit the full name and upload a photo; both are kept', async ({ page }) => {
    const account = await sharedAccount();
    await signIn(page, account);

    await openUserMenuItem(page, account.email, 'Profile');
    const modal = page.getByRole('dialog', { name: 'Profile settings' });
    await modal.getByLabel('Full name').fill('A');
    await modal.getByRole('button', { name: 'Save' }).click();
    await modal.getByText('Invalid full name').waitFor();

    await modal.getByLabel('Full name').fill('Ada Journey');
    await modal.locator('input[type="file"]').setInputFiles({
      name: 'me.jpg',
      mimeType: 'image/jpeg',
      buffer: await jpegFromCanvas(page),
    });
    await expect
      .poll(() => modal.getByRole('img', { name: 'Profile photo preview' }).getAttribute('src'))
      .toMatch(/^blob:/);
    await modal.getByRole('button', { name: 'Save' }).click();

    await page.getByText('Profile picture updated').waitFor();
    await page.getByText('Profile data updated').waitFor();
    await modal.waitFor({ state: 'detached' });

    await page.reload();
    // The header shows the stored photo, fetched with the token and shown from a blob URL.
    await expect
      .poll(() =>
        page
          .getByRole('button', { name: `Account menu of ${account.email}` })
          .locator('img')
          .getAttribute('src'),
      )
      .toMatch(/^blob:/);
    await openUserMenuItem(page, account.email, 'Profile');
    expect(
      await page.getByRole('dialog', { name: 'Profile settings' }).getByLabel('Full name').inputValue(),
    ).toBe('Ada Journey');
  });

  journey('change the password, then sign in with the new one', async ({ page }) => {
    const account = await createVerifiedAccount();
    await signIn(page, account);

    await openUserMenuItem(page, account.email, 'Change password');
    const modal = page.getByRole('dialog', { name: 'Change password' });
    await modal.getByLabel(/^Current password/).fill('Not-the-one-1');
    await modal.getByLabel(/^New password/).fill('Changed-Pass-2');
    await modal.getByLabel(/^Confirm new password/).fill('Changed-Pass-2');
    await modal.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password change failed').waitFor();

    await modal.getByLabel(/^Current password/).fill(account.password);
    await modal.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password changed', { exact: true }).waitFor();

    await openUserMenuItem(page, account.email, 'Logout');
    await page.waitForURL((url) => url.pathname === '/auth/login');
    await submitLogin(page, { email: account.email, password: 'Changed-Pass-2' });
    await page.waitForURL((url) => url.pathname === '/home');
  });
});
