import { describe, expect, it } from 'vitest';
import { paymentInitRequestSchema, paymentValidationMessages as m, purchaseAmounts } from './payments.js';

const form = {
  email: 'Zoe@Example.com',
  full_name: 'Zoë Müller',
  customerType: 'private',
  countryIso: 'fr',
  paymentMethod: 'visa',
  credits: '5000',
  vatRate: '20',
  totalPrice: '6000',
};

/** The message of each problem, by field. */
function problems(input: Record<string, unknown>): Record<string, string> {
  const result = paymentInitRequestSchema.safeParse(input);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
}

describe('payment-init payload', () => {
  it('accepts a private purchase, coercing form values to their types', () => {
    expect(paymentInitRequestSchema.parse(form)).toEqual({
      email: 'zoe@example.com',
      full_name: 'Zoë Müller',
      customerType: 'private',
      vat_number: '',
      company_name: '',
      company_address: '',
      countryIso: 'FR',
      paymentMethod: 'visa',
      credits: 5000,
      vatRate: 20,
      totalPrice: 6000,
    });
  });

  it('takes $10 to $1000 of credits, in cents', () => {
    expect(problems({ ...form, credits: 1000, totalPrice: 1200 })).toEqual({});
    expect(problems({ ...form, credits: 100_000, totalPrice: 120_000 })).toEqual({});
    expect(problems({ ...form, credits: 999 })).toEqual({ credits: m.creditsInvalid });
    expect(problems({ ...form, credits: 100_001 })).toEqual({ credits: m.creditsInvalid });
    expect(problems({ ...form, credits: '12.5' })).toEqual({ credits: m.creditsInvalid });
    expect(problems({ ...form, credits: 'ten' })).toEqual({ credits: m.creditsInvalid });
  });

  it("answers the spec's messages for the other fields", () => {
    expect(problems({ ...form, full_name: ' ' })).toEqual({ full_name: 'Invalid full name' });
    expect(problems({ ...form, countryIso: '' })).toEqual({ countryIso: 'Select valid country' });
    expect(problems({ ...form, countryIso: undefined })).toEqual({ countryIso: 'Select valid country' });
    expect(problems({ ...form, paymentMethod: 'paypal' })).toEqual({
      paymentMethod: 'Invalid payment method',
    });
    expect(problems({ ...form, vat_number: 'FR 123' })).toEqual({ vat_number: 'Invalid vatNumber' });
    expect(problems({ ...form, email: 'ab' })).toEqual({ email: 'Use at least 3 characters' });
    expect(problems({ ...form, email: 'not-an-address' })).toEqual({
      email: 'Please fill in a valid email address',
    });
  });

  it('requires a company name from companies only', () => {
    const company = { ...form, customerType: 'company', vat_number: 'DE123456789' };
    expect(problems(company)).toEqual({ company_name: 'Required company name' });
    expect(problems({ ...company, company_name: 'Größe & Söhne GmbH' })).toEqual({});
    expect(problems({ ...form, customerType: 'association' })).toHaveProperty('customerType');
  });
});

describe('purchase amounts (spec §9)', () => {
  it('adds VAT = credits × rate / 100, rounded to the cent, halves up, without float drift', () => {
    expect(purchaseAmounts(2000, 21)).toEqual({
      creditsCents: 2000,
      vatRate: 21,
      vatCents: 420,
      totalCents: 2420,
    });
    expect(purchaseAmounts(1010, 25.5).vatCents).toBe(258);
    expect(purchaseAmounts(1005, 21).vatCents).toBe(211);
    expect(purchaseAmounts(100_000, 0)).toMatchObject({ vatCents: 0, totalCents: 100_000 });
  });
});
