import { describe, expect, it } from 'vitest';
import { invoiceApiPath } from './billingApi';

describe('invoice location', () => {
  it('becomes a path of the API client whichever way the server writes it', () => {
    expect(invoiceApiPath('/api/v1/limiter/payments/pay-1/invoice')).toBe('/limiter/payments/pay-1/invoice');
    expect(invoiceApiPath('/limiter/payments/pay-1/invoice?lang=en')).toBe(
      '/limiter/payments/pay-1/invoice?lang=en',
    );
    expect(invoiceApiPath(`${window.location.origin}/api/v1/invoices/VBT-1.pdf`)).toBe('/invoices/VBT-1.pdf');
  });
});
