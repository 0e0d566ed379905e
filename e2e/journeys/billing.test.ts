import { readFile } from 'node:fs/promises';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { createVerifiedAccount, sharedAccount } from '../support/accounts.js';
import { journey, phoneViewport } from '../support/journey.js';
import { signIn } from '../support/signIn.js';

/** The text of a PDF, as a person reading it (or a search) sees it. */
async function pdfText(pdf: Buffer): Promise<string> {
  const document = await getDocument({ data: new Uint8Array(pdf), isEvalSupported: false }).promise;
  const pages: string[] = [];
  for (let number = 1; number <= document.numPages; number += 1) {
    const content = await (await document.getPage(number)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  await document.destroy();
  return pages.join(' ').replace(/\s+/g, ' ');
}

const company = 'Müller Sprachtechnik GmbH';
const germanVatNumber = 'DE136308783';

function balance(page: Page) {
  return page.getByTestId('billing-balance');
}

async function chooseCountry(page: Page, name: string): Promise<void> {
  const country = page.getByRole('textbox', { name: 'Country' });
  await country.fill(name);
  await page.getByRole('option', { name, exact: true }).click();
}

/** The sandbox's hosted checkout page: pays with the card, as a customer types it. */
async function payOnSandbox(page: Page, cardNumber: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === '/sandbox-checkout');
  await page.getByText('TEST MODE', { exact: true }).first().waitFor();
  await page.getByLabel('Card number').fill(cardNumber);
  await page.getByLabel(/^Expiry date/).fill('12/34');
  await page.getByLabel(/^Security code/).fill('123');
  await page.getByLabel('Name on card').fill('Jonas Müller');
  await page.getByRole('button', { name: /^Pay / }).click();
}

describe('prepaid credits', () => {
  journey(
    'top up as an EU company with a VAT number, pay in the sandbox, see the credit and the reverse-charge invoice; a declined card adds nothing',
    async ({ page }) => {
      const account = await createVerifiedAccount();
      await signIn(page, account, '/billing');
      await page.getByRole('heading', { level: 1, name: 'Billing and limits' }).waitFor();
      await expect.poll(() => balance(page).textContent()).toBe('$5.00');

      // $20 as a German company with a valid VAT number: reverse charge, no VAT.
      await page.getByRole('textbox', { name: 'Amount' }).fill('20');
      await page.getByRole('textbox', { name: 'Full name' }).fill('Jonas Müller');
      await chooseCountry(page, 'Germany');
      // A segmented control: its radios are hidden behind their labels.
      await page.locator('label', { hasText: /^Company$/ }).click();
      expect(await page.getByRole('radio', { name: 'Company' }).isChecked()).toBe(true);
      await page.getByRole('textbox', { name: 'Company name' }).fill(company);
      await page.getByRole('textbox', { name: 'VAT number' }).fill(germanVatNumber);
      await page.getByRole('textbox', { name: 'Company address' }).fill('Hauptstraße 5, 10115 Berlin');
      await page.getByRole('radio', { name: 'Mastercard' }).check();
      await page.getByRole('button', { name: 'Checkout' }).click();

      const confirm = page.getByRole('dialog', { name: 'Confirm payment' });
      const summary = confirm.getByTestId('payment-summary');
      await summary.waitFor();
      const reviewed = (await summary.textContent()) ?? '';
      expect(reviewed).toContain(company);
      expect(reviewed).toContain(germanVatNumber);
      expect(reviewed).toMatch(/Credits\s*\$20\.00/);
      expect(reviewed).toMatch(/VAT\s*\$0\.00/);
      expect(reviewed).toMatch(/Total\s*\$20\.00/);
      await confirm.getByText('Reverse charge').waitFor();
      await confirm.getByRole('button', { name: 'Confirm and pay' }).click();

      await payOnSandbox(page, '4242 4242 4242 4242');
      await page.waitForURL((url) => url.pathname.startsWith('/payment/success/'));
      await page.getByRole('heading', { name: 'Payment successful' }).waitFor();
      await page.getByText(/Taking you to Getting started in \d+ seconds?…/).waitFor();
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.waitForURL((url) => url.pathname === '/home');

      const sidebar = page.getByRole('navigation', { name: 'Main navigation' });
      await expect.poll(() => sidebar.getByTestId('credit-balance').textContent()).toBe('$25.00');
      await page.goto('/billing');
      await expect.poll(() => balance(page).textContent()).toBe('$25.00');

      await page.goto('/billing/history');
      const paidRow = page.getByRole('row').filter({ hasText: /VBT-\d{4}-\d{6}/ });
      await paidRow.waitFor();
      const paidText = (await paidRow.textContent()) ?? '';
      expect(paidText).toContain('$20.00');
      expect(paidText).toContain('Sandbox (test mode)');
      expect(paidText).toContain('Paid');
      const invoiceNumber = /VBT-\d{4}-\d{6}/.exec(paidText)?.[0];
      expect(invoiceNumber).toBeDefined();

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        paidRow.getByRole('button', { name: `Download invoice ${invoiceNumber}` }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`${invoiceNumber}.pdf`);
      const pdf = await readFile((await download.path()) ?? '');
      expect(pdf.subarray(0, 4).toString()).toBe('%PDF');
      const text = await pdfText(pdf);
      expect(text).toContain(invoiceNumber);
      expect(text).toContain(company);
      expect(text).toContain(germanVatNumber);
      expect(text).toContain('Reverse charge');
      expect(text).toContain('$20.00');

      // A declined card: the sandbox says so, and the balance stays as it was.
      await page.goto('/billing');
      await expect.poll(() => balance(page).textContent()).toBe('$25.00');
      await page.getByRole('textbox', { name: 'Amount' }).fill('10');
      await page.getByRole('textbox', { name: 'Full name' }).fill('Jonas Müller');
      await chooseCountry(page, 'France');
      await page.getByRole('radio', { name: 'Visa' }).check();
      await page.getByRole('button', { name: 'Checkout' }).click();
      const secondConfirm = page.getByRole('dialog', { name: 'Confirm payment' });
      expect(await secondConfirm.getByTestId('payment-summary').textContent()).toMatch(/Total\s*\$12\.00/);
      await secondConfirm.getByRole('button', { name: 'Confirm and pay' }).click();
      await payOnSandbox(page, '4000 0000 0000 0002');
      await page.getByText('Your card was declined. Try another card.').waitFor();
      expect(new URL(page.url()).pathname).toBe('/sandbox-checkout');

      await page.goto('/billing');
      await expect.poll(() => balance(page).textContent()).toBe('$25.00');
      await page.goto('/billing/history');
      const failedRow = page.getByRole('row').filter({ hasText: 'Failed' });
      await failedRow.waitFor();
      expect(await failedRow.textContent()).toContain('$12.00');
    },
    120_000,
  );

  journey('the top-up form and the confirm modal fit a phone screen', async ({ page }) => {
    await page.setViewportSize(phoneViewport);
    await signIn(page, await sharedAccount(), '/billing');
    await page.getByRole('heading', { level: 1, name: 'Billing and limits' }).waitFor();
    await page.getByRole('textbox', { name: 'Full name' }).fill('Zoé Martin');
    await chooseCountry(page, 'France');
    await page.getByRole('radio', { name: 'Visa' }).check();
    await page.getByRole('button', { name: 'Checkout' }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm payment' });
    expect(await confirm.getByTestId('payment-summary').textContent()).toMatch(/VAT\s*\$2\.00/);
    const box = await confirm.boundingBox();
    expect(box?.width ?? Infinity).toBeLessThanOrEqual(phoneViewport.width);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
