import { readFile } from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { pdfText } from '../../apps/server/src/test-support/pdf-text.js';
import { createVerifiedAccount, sharedAccount } from '../support/accounts.js';
import { journey, phoneViewport } from '../support/journey.js';
import { signIn } from '../support/signIn.js';

const company = 'Müller Sprachtechnik GmbH';
/** Valid by its checksum; with VIES off (the default) the server judges it on format and checksum. */
const germanVatNumber = 'DE136308783';
const cardholder = 'Jonas Müller';
const invoiceNumberPattern = /VBT-\d{4}-\d{6}/;

/** The balance reaches the screens through polled queries: give them more than expect.poll's 1 s. */
const balancePoll = { timeout: 10_000 };

function balanceCard(page: Page) {
  return page.getByRole('region', { name: 'Remaining credit' }).getByTestId('billing-balance');
}

function sidebarBalance(page: Page) {
  return page.getByRole('navigation', { name: 'Main navigation' }).getByTestId('credit-balance');
}

/** A Mantine Select: type into its input, then pick the option from the list it opens. */
async function chooseCountry(page: Page, name: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Country' }).fill(name);
  await page.getByRole('option', { name, exact: true }).click();
}

/** The confirm modal's summary (a description list) as { label: value }. */
async function summaryOf(dialog: Locator): Promise<Record<string, string>> {
  const summary = dialog.getByTestId('payment-summary');
  await summary.waitFor();
  return summary.evaluate((list) =>
    Object.fromEntries(
      Array.from(list.querySelectorAll('dt'), (term) => [
        term.textContent?.trim() ?? '',
        term.nextElementSibling?.textContent?.trim() ?? '',
      ]),
    ),
  );
}

/** The rows of the billing history's table, each as { column header: cell text }. */
async function historyRows(page: Page): Promise<Record<string, string>[]> {
  const table = page.getByRole('table', { name: 'Payments' });
  await table.waitFor();
  return table.evaluate((element) => {
    const headers = Array.from(element.querySelectorAll('thead th'), (th) => th.textContent?.trim() ?? '');
    return Array.from(element.querySelectorAll('tbody tr'), (row) =>
      Object.fromEntries(
        Array.from(row.querySelectorAll('td'), (cell, index) => [
          headers[index] ?? String(index),
          cell.textContent?.trim() ?? '',
        ]),
      ),
    );
  });
}

/** Waits for the sandbox's hosted checkout (outside the console), clearly in test mode. */
async function atSandboxCheckout(page: Page, amount: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === '/sandbox-checkout');
  expect(new URL(page.url()).searchParams.get('session')).toMatch(/^[\w-]{40,}$/);
  expect(await page.getByRole('note').textContent()).toContain('TEST MODE');
  await page.getByRole('heading', { level: 1, name: /^Pay / }).waitFor();
  await page.getByText(amount, { exact: true }).waitFor();
}

/** Pays on the sandbox's card form, as a customer types it. */
async function payOnSandbox(page: Page, cardNumber: string, amount: string): Promise<void> {
  await page.getByLabel('Card number').fill(cardNumber);
  await page.getByLabel(/^Expiry date/).fill('12/34');
  await page.getByLabel(/^Security code/).fill('123');
  await page.getByLabel('Name on card').fill(cardholder);
  await page.getByRole('button', { name: `Pay ${amount}` }).click();
}

describe('prepaid credits', () => {
  journey(
    'top up as an EU company with a VAT number, pay in the sandbox, see the credit and the reverse-charge invoice; a declined card adds nothing',
    async ({ page }) => {
      const account = await createVerifiedAccount();
      await signIn(page, account, '/billing');
      await page.getByRole('heading', { level: 1, name: 'Billing and limits' }).waitFor();
      // A new account starts with $5.00 of credit.
      await expect.poll(() => balanceCard(page).textContent(), balancePoll).toBe('$5.00');
      const topUp = page.getByRole('region', { name: 'Top up credit' });
      await topUp.waitFor();
      // Prefilled from the profile.
      expect(await topUp.getByRole('textbox', { name: 'E-mail' }).inputValue()).toBe(account.email);

      // $20 as a company in Germany (the seller is in France) with a valid VAT number: reverse charge.
      await topUp.getByRole('textbox', { name: 'Amount' }).fill('20');
      await topUp.getByRole('textbox', { name: 'Full name' }).fill(cardholder);
      await chooseCountry(page, 'Germany');
      // A segmented control: its radios are hidden behind their labels.
      await topUp.locator('label', { hasText: /^Company$/ }).click();
      expect(await topUp.getByRole('radio', { name: 'Company' }).isChecked()).toBe(true);
      await topUp.getByRole('textbox', { name: 'Company name' }).fill(company);
      await topUp.getByRole('textbox', { name: 'VAT number' }).fill(germanVatNumber);
      await topUp.getByRole('textbox', { name: 'Company address' }).fill('Hauptstraße 5, 10115 Berlin');
      await topUp.getByRole('radio', { name: 'Mastercard' }).check();
      await topUp.getByRole('button', { name: 'Checkout' }).click();

      const confirm = page.getByRole('dialog', { name: 'Confirm payment' });
      expect(await summaryOf(confirm)).toEqual({
        'Billed to': company,
        Country: 'Germany',
        'VAT number': germanVatNumber,
        Card: 'Mastercard',
        Credits: '$20.00',
        'VAT rate': '0%',
        VAT: '$0.00',
        Total: '$20.00',
      });
      await confirm.getByText('Reverse charge', { exact: true }).waitFor();
      await confirm.getByRole('button', { name: 'Confirm and pay' }).click();

      await atSandboxCheckout(page, '$20.00');
      await page.getByText(account.email, { exact: true }).waitFor();
      await payOnSandbox(page, '4242 4242 4242 4242', '$20.00');

      // Back in the console: the success page counts down from 10 s to Getting started.
      await page.waitForURL((url) => url.pathname.startsWith('/payment/success/'));
      const sessionId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
      expect(sessionId).toMatch(/^cs_sandbox_/);
      await page.getByRole('heading', { level: 1, name: 'Payment successful' }).waitFor();
      await page.getByText(`Reference: ${sessionId}`).waitFor();
      await expect.poll(() => page.getByTestId('landing-balance').textContent(), balancePoll).toBe('$25.00');
      const countdown = page.getByRole('timer');
      const secondsLeft = async () => {
        const text = (await countdown.textContent()) ?? '';
        const match = /^Taking you to Getting started in (\d+) seconds?…$/.exec(text);
        if (!match) throw new Error(`unexpected countdown text: ${text}`);
        return Number(match[1]);
      };
      const firstReading = await secondsLeft();
      expect(firstReading).toBeGreaterThan(0);
      expect(firstReading).toBeLessThanOrEqual(10);
      await expect.poll(secondsLeft, { timeout: 3_000 }).toBeLessThan(firstReading);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.waitForURL((url) => url.pathname === '/home');

      // Exactly $20 more, in the sidebar and on the billing page.
      await expect.poll(() => sidebarBalance(page).textContent(), balancePoll).toBe('$25.00');
      await page.goto('/billing');
      await expect.poll(() => balanceCard(page).textContent(), balancePoll).toBe('$25.00');

      await page.getByRole('link', { name: 'Billing history' }).click();
      await page.waitForURL((url) => url.pathname === '/billing/history');
      await page.getByRole('heading', { level: 1, name: 'Billing history' }).waitFor();
      const [paid] = await historyRows(page);
      expect(paid).toMatchObject({
        'Paid via': 'Sandbox (test mode)',
        Total: '$20.00',
        Status: 'Paid',
      });
      expect(paid?.['Paid at']).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      const invoiceNumber = paid?.Invoice ?? '';
      expect(invoiceNumber).toMatch(new RegExp(`^${invoiceNumberPattern.source}$`));

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: `Download invoice ${invoiceNumber}` }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`${invoiceNumber}.pdf`);
      const downloadedPath = await download.path();
      const pdf = await readFile(downloadedPath);
      expect(pdf.subarray(0, 4).toString('latin1')).toBe('%PDF');
      const text = await pdfText(pdf);
      for (const expected of [invoiceNumber, company, germanVatNumber, 'Reverse charge', '$20.00']) {
        expect(text).toContain(expected);
      }

      // A declined card: $10 as a private customer in France (20 % VAT), the sandbox says why,
      // the balance stays as it was and the history shows the payment as failed.
      await page.goto('/billing');
      await expect.poll(() => balanceCard(page).textContent(), balancePoll).toBe('$25.00');
      await topUp.getByRole('textbox', { name: 'Amount' }).fill('10');
      await topUp.getByRole('textbox', { name: 'Full name' }).fill(cardholder);
      await chooseCountry(page, 'France');
      expect(await topUp.getByRole('radio', { name: 'Private customer' }).isChecked()).toBe(true);
      await topUp.getByRole('radio', { name: 'Visa' }).check();
      await topUp.getByRole('button', { name: 'Checkout' }).click();
      const secondConfirm = page.getByRole('dialog', { name: 'Confirm payment' });
      expect(await summaryOf(secondConfirm)).toEqual({
        'Billed to': cardholder,
        Country: 'France',
        Card: 'Visa',
        Credits: '$10.00',
        'VAT rate': '20%',
        VAT: '$2.00',
        Total: '$12.00',
      });
      expect(await secondConfirm.getByText('Reverse charge', { exact: true }).count()).toBe(0);
      await secondConfirm.getByRole('button', { name: 'Confirm and pay' }).click();

      await atSandboxCheckout(page, '$12.00');
      await payOnSandbox(page, '4000 0000 0000 0002', '$12.00');
      const decline = page.getByRole('alert');
      await decline.waitFor();
      expect(await decline.textContent()).toBe('Your card was declined. Try another card.');
      expect(new URL(page.url()).pathname).toBe('/sandbox-checkout');
      // The form stays, ready for another card; the declined number is not kept.
      expect(await page.getByLabel('Card number').inputValue()).toBe('');
      expect(await page.getByLabel('Name on card').inputValue()).toBe(cardholder);

      await page.getByRole('link', { name: 'Cancel and go back' }).click();
      await page.waitForURL((url) => url.pathname === '/billing');
      await expect.poll(() => balanceCard(page).textContent(), balancePoll).toBe('$25.00');
      await expect.poll(() => sidebarBalance(page).textContent(), balancePoll).toBe('$25.00');
      await page.goto('/billing/history');
      const rows = await historyRows(page);
      expect(rows).toHaveLength(2);
      // Newest first: the declined payment, without an invoice, then the paid one.
      expect(rows[0]).toMatchObject({
        Invoice: '-',
        'Paid via': 'Sandbox (test mode)',
        Total: '$12.00',
        Status: 'Failed',
      });
      expect(rows[1]).toMatchObject({ Invoice: invoiceNumber, Total: '$20.00', Status: 'Paid' });
    },
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
    expect(await summaryOf(confirm)).toMatchObject({ VAT: '$2.00', Total: '$12.00' });
    const box = await confirm.boundingBox();
    expect(box?.width ?? Infinity).toBeLessThanOrEqual(phoneViewport.width);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
