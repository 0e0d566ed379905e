import type { Country, Payment, Usage, VatRate } from '@verbatim/contracts';

/** Answers of the billing endpoints shared by the billing and payment tests. */
export const sampleCountries: Country[] = [
  { iso: 'BE', name: 'Belgium' },
  { iso: 'FI', name: 'Finland' },
  { iso: 'FR', name: 'France' },
  { iso: 'US', name: 'United States' },
];

export const sampleUsages: Usage[] = [
  { name: 'http_api', seconds: 3725, calls: 4, currentUsage: 11, pricePerHourMicros: 100_000 },
  { name: 'ws_streaming', seconds: 0, calls: 0, currentUsage: 0, pricePerHourMicros: 300_000 },
];

export function vatRateOf(overrides: Partial<VatRate> = {}): VatRate {
  return {
    country: 'BE',
    countryName: 'Belgium',
    isValidVATNumber: false,
    vatNumber: null,
    validation: 'none',
    treatment: 'domestic',
    reverseCharge: false,
    standardRate: 21,
    countryStandardRate: 21,
    ratesAsOf: '2026-01-01',
    ...overrides,
  };
}

export function paymentOf(overrides: Partial<Payment> = {}): Payment {
  return {
    id: 'pay-1',
    createdAt: '2026-03-04T10:20:30.000Z',
    transactionNumber: 'pi_1',
    paymentProvider: 'sandbox',
    status: 'succeeded',
    amount: 2420,
    purchase: { ceiling: 2000 },
    invoiceNumber: 'VBT-2026-000001',
    invoiceEnLocation: '/api/v1/limiter/payments/pay-1/invoice',
    ...overrides,
  };
}
