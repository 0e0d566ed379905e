import { describe, expect } from 'vitest';
import { journeyPassword, newEmail } from '../support/accounts.js';
import { solveCaptchaWidget } from '../support/captcha.js';
import { journey } from '../support/journey.js';
import { linkFromOutbox } from '../support/outbox.js';

describe('registration', () => {
  journey(
    'register with the captcha, open the verification link from the e-mail, land signed in on /home',
    async ({ page }) => {
      const email = newEmail('reg');
      await page.goto('/auth/register');
      await page.getByLabel('E-mail').fill(`  ${email}  `);
      await page.getByLabel(/^Password/).fill(journeyPassword);
      await page.getByLabel('Confirm password').fill('Something-else-1');
      await page.getByRole('button', { name: 'Register' }).click();

      // Spec §5: each rule with its exact message, before anything is sent.
      await page.getByText('Password and confirm password do not match').waitFor();
      await page.getByText('Please verify that you are not a robot').waitFor();

      await page.getByLabel('Confirm password').fill(journeyPassword);
      await solveCaptchaWidget(page);
      await page.getByRole('button', { name: 'Register' }).click();

      await page.getByRole('heading', { name: "You're almost in..." }).waitFor();
      expect(await page.getByTestId('registered-email').textContent()).toBe(email);

      const link = await linkFromOutbox(email, '/auth/verify/');
      await page.goto(new URL(link).pathname);

      await page.waitForURL((url) => url.pathname === '/home', { timeout: 15_000 });
      await page.getByRole('heading', { name: 'Getting started', level: 1 }).waitFor();
      await page.getByRole('button', { name: `Account menu of ${email}` }).waitFor();
    },
  );

  journey('a used verification link leads to the login page saying it expired', async ({ page }) => {
    await page.goto('/auth/verify/not-a-real-code-0123456789');

    await page.waitForURL((url) => url.pathname === '/auth/login');
    await page.getByText('This link has expired. Log in, or ask for a new one.').waitFor();
  });
});
