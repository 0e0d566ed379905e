import { describe, expect, it } from 'vitest';
import { pdfText } from '../../test-support/pdf-text.js';
import type { InvoiceDocument } from './invoice-document.js';
import { formatInvoiceNumber, parseInvoiceNumber } from './invoice-number.js';
import { renderInvoicePdf } from './invoice-pdf.js';

const reverseChargeMention =
  'Reverse charge: VAT to be accounted for by the recipient (Article 196, Council Directive 2006/112/EC)';

const seller: InvoiceDocument['seller'] = {
  name: 'Verbatim SAS',
  addressLines: ['12 rue de la Paix', '75002 Paris'],
  countryName: 'France',
  vatNumber: 'FR40123456789',
  email: 'billing@verbatim.test',
};

/** A private customer in France: domestic VAT at 20 %. */
const domestic: InvoiceDocument = {
  number: formatInvoiceNumber(2026, 1),
  issuedAt: new Date('2026-03-14T09:30:00Z'),
  seller,
  buyer: {
    type: 'private',
    fullName: 'Zoë Müller-Straße',
    email: 'zoe@example.com',
    companyName: null,
    companyAddress: null,
    vatNumber: null,
    countryName: 'France',
  },
  creditsCents: 5_000,
  vat: { treatment: 'domestic', ratePercent: 20, amountCents: 1_000 },
  totalCents: 6_000,
  currency: 'USD',
  payment: {
    provider: 'stripe',
    paidAt: new Date('2026-03-14T09:29:41Z'),
    transactionNumber: 'pi_3VerbatimInvoice',
    card: null,
  },
};

/** A company in Germany with a valid VAT number: reverse charge. */
const reverseCharge: InvoiceDocument = {
  ...domestic,
  number: formatInvoiceNumber(2026, 42),
  buyer: {
    type: 'company',
    fullName: 'Jürgen Weiß',
    email: 'einkauf@example.de',
    companyName: 'Größe & Söhne GmbH',
    companyAddress: 'Königstraße 1\n70173 Stuttgart',
    vatNumber: 'DE123456789',
    countryName: 'Germany',
  },
  creditsCents: 123_456,
  vat: { treatment: 'reverse_charge', ratePercent: 0, amountCents: 0 },
  totalCents: 123_456,
  payment: { ...domestic.payment, provider: 'sandbox', card: { brand: 'visa', last4: '4242' } },
};

describe('invoice numbers', () => {
  it('are PREFIX-YEAR-SEQUENCE with six digits at least', () => {
    expect(formatInvoiceNumber(2026, 1)).toBe('VBT-2026-000001');
    expect(formatInvoiceNumber(2026, 1_234_567)).toBe('VBT-2026-1234567');
    expect(formatInvoiceNumber(2027, 12, 'ACME')).toBe('ACME-2027-000012');
    expect(parseInvoiceNumber('VBT-2026-000042')).toEqual({ prefix: 'VBT', year: 2026, sequence: 42 });
    expect(parseInvoiceNumber('VBT-2026-42')).toBeUndefined();
    expect(() => formatInvoiceNumber(2026, 0)).toThrow(RangeError);
    expect(() => formatInvoiceNumber(2026, 1, 'bad prefix')).toThrow(RangeError);
  });
});

describe('invoice PDF', () => {
  it('prints every field of a domestic invoice, with non-ASCII names intact', async () => {
    const pdf = await renderInvoicePdf(domestic);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = await pdfText(pdf);
    for (const expected of [
      'INVOICE',
      'Invoice number VBT-2026-000001',
      'Date of issue 2026-03-14',
      'Date paid 2026-03-14',
      'Paid via Stripe',
      'Transaction pi_3VerbatimInvoice',
      'Verbatim SAS',
      '12 rue de la Paix',
      '75002 Paris',
      'VAT number: FR40123456789',
      'billing@verbatim.test',
      'Zoë Müller-Straße',
      'zoe@example.com',
      'Prepaid speech-to-text API credits',
      'Subtotal (excluding VAT) $50.00',
      'VAT (20%) $10.00',
      'Total (USD) $60.00',
      'All amounts are in US dollars (USD).',
    ]) {
      expect(text, expected).toContain(expected);
    }
    expect(text).not.toContain('Reverse charge');
    expect(text).not.toContain('VAT not applicable');
    expect(text).not.toContain('TEST MODE');
  });

  it("prints the reverse-charge mention and the buyer's company details when it applies", async () => {
    const text = await pdfText(await renderInvoicePdf(reverseCharge));
    for (const expected of [
      'Invoice number VBT-2026-000042',
      'Größe & Söhne GmbH',
      'Königstraße 1',
      '70173 Stuttgart',
      'Germany',
      'VAT number: DE123456789',
      'Contact: Jürgen Weiß',
      'einkauf@example.de',
      'Subtotal (excluding VAT) $1,234.56',
      'VAT (0%) $0.00',
      'Total (USD) $1,234.56',
      reverseChargeMention,
      'Paid via sandbox checkout (test mode), Visa •••• 4242',
      'TEST MODE: issued for a sandbox payment; no money was received.',
    ]) {
      expect(text, expected).toContain(expected);
    }
  });

  it('says why no VAT is charged outside the EU, by kind of customer', async () => {
    const outside = (type: 'private' | 'company') =>
      renderInvoicePdf({
        ...domestic,
        buyer: {
          ...domestic.buyer,
          type,
          companyName: type === 'company' ? 'Acme Inc.' : null,
          countryName: 'United States',
        },
        vat: { treatment: 'outside_eu', ratePercent: 0, amountCents: 0 },
        totalCents: domestic.creditsCents,
      }).then(pdfText);
    const consumer = await outside('private');
    expect(consumer).toContain(
      'VAT not applicable: place of supply outside the European Union (Article 58, Council Directive 2006/112/EC)',
    );
    expect(consumer).not.toContain('Reverse charge');
    expect(await outside('company')).toContain('(Article 44, Council Directive 2006/112/EC)');
  });

  it('prints names from anywhere in Europe, not only Western European letters', async () => {
    const text = await pdfText(
      await renderInvoicePdf({
        ...domestic,
        buyer: { ...domestic.buyer, fullName: 'Łukasz Wiśniewski Κωνσταντίνος Иван', countryName: 'Polska' },
      }),
    );
    expect(text).toContain('Łukasz Wiśniewski Κωνσταντίνος Иван');
  });

  it('renders in French', async () => {
    const text = await pdfText(await renderInvoicePdf(reverseCharge, 'fr'));
    expect(text).toContain('FACTURE');
    expect(text).toContain('Numéro de facture VBT-2026-000042');
    expect(text).toContain('Total (USD) 1 234,56 $US');
    expect(text).toContain(
      'Autoliquidation : TVA due par le preneur (article 196 de la directive 2006/112/CE du Conseil)',
    );
  });

  it('refuses to print figures that do not add up', async () => {
    await expect(renderInvoicePdf({ ...domestic, totalCents: 6_001 })).rejects.toThrow(
      /total must be credits plus VAT/,
    );
    await expect(
      renderInvoicePdf({
        ...domestic,
        vat: { treatment: 'domestic', ratePercent: 20, amountCents: 900 },
        totalCents: 5_900,
      }),
    ).rejects.toThrow(/VAT amount does not match/);
    await expect(
      renderInvoicePdf({ ...reverseCharge, buyer: { ...reverseCharge.buyer, vatNumber: null } }),
    ).rejects.toThrow(/VAT number/);
    await expect(
      renderInvoicePdf({
        ...reverseCharge,
        vat: { treatment: 'reverse_charge', ratePercent: 19, amountCents: 23_457 },
        totalCents: 146_913,
      }),
    ).rejects.toThrow(/no VAT is charged under reverse_charge/);
  });
});
