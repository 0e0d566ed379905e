import { describe } from 'vitest';
import { createVerifiedAccount } from '../support/accounts.js';
import { solveCaptchaWidget } from '../support/captcha.js';
import { journey } from '../support/journey.js';
import { linkFromOutbox } from '../support/outbox.js';
import { submitLogin } from '../support/signIn.js';

describe('password recovery', () => {
  journey('forgot password, the e-mailed link, a new password, signed in on /home', async ({ page }) => {
    const account = await createVerifiedAccount();
    await page.goto('/auth/login');
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    const modal = page.getByRole('dialog', { name: 'Forgot password' });
    await modal.getByLabel('E-mail').fill(account.email);
    await solveCaptchaWidget(page);
    await modal.getByRole('button', { name: 'Send the link' }).click();
    await page.getByRole('dialog', { name: 'Check your e-mail' }).waitFor();

    const link = await linkFromOutbox(account.email, '/auth/recovery/');
    await page.goto(new URL(link).pathname);
    const newPassword = 'Recovered-Pass-2';
    await page.getByLabel(/^New password/).fill(newPassword);
    await page.getByLabel(/^Confirm password/).fill('Recovered-Pass-3');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password and confirm password do not match').waitFor();
    await page.getByLabel(/^Confirm password/).fill(newPassword);
    await page.getByRole('button', { name: 'Change password' }).click();

    await page
      .getByText('Your password was changed, you should be redirected within a few seconds.')
      .waitFor();
    await page.waitForURL((url) => url.pathname === '/home', { timeout: 15_000 });

    // The old password is gone, the new one works.
    await page.getByRole('button', { name: `Account menu of ${account.email}` }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL((url) => url.pathname === '/auth/login');
    await submitLogin(page, account);
    await page.getByText('Wrong username or password.').waitFor();
    await submitLogin(page, { email: account.email, password: newPassword });
    await page.waitForURL((url) => url.pathname === '/home');
  });
});
