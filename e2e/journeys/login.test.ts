import { describe, expect } from 'vitest';
import { newEmail, sharedAccount } from '../support/accounts.js';
import { solveCaptchaWidget } from '../support/captcha.js';
import { journey } from '../support/journey.js';
import { submitLogin } from '../support/signIn.js';

const wrongCredentials = 'Wrong username or password.';

describe('login', () => {
  journey(
    'a wrong password is said under the password field, and goes when the input changes',
    async ({ page }) => {
      const account = await sharedAccount();
      await page.goto('/auth/login');

      await submitLogin(page, { email: account.email, password: 'Not-the-password-1' });

      await page.getByText(wrongCredentials).waitFor();
      await page.getByLabel(/^Password/).fill('x');
      await page.getByText(wrongCredentials).waitFor({ state: 'detached' });
    },
  );

  journey('after repeated failures the captcha is demanded, then accepted once solved', async ({ page }) => {
    // An address of its own: the server counts failures per address (5 before the captcha).
    const credentials = { email: newEmail('captcha'), password: 'Wrong-password-1' };
    await page.goto('/auth/login');
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      await submitLogin(page, credentials);
      await page.getByText(wrongCredentials).waitFor();
      await page.getByLabel(/^Password/).fill('');
    }
    expect(await page.getByTestId('captcha').count()).toBe(0);

    await submitLogin(page, credentials);

    // 429: the message, and from now on the captcha.
    await page.getByText(wrongCredentials).waitFor();
    await page.getByTestId('captcha').waitFor();
    await submitLogin(page, credentials);
    await page.getByText('Please verify that you are not a robot').waitFor();

    await solveCaptchaWidget(page);
    await page.getByRole('button', { name: 'Log in' }).click();

    // The server took the solution: the answer is about the credentials again, not the captcha.
    await page.getByText(wrongCredentials).waitFor();
    expect(await page.getByText('Please verify that you are not a robot').count()).toBe(0);
  });
});
