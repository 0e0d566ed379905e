import { describe, expect, it } from 'vitest';
import { checkoutAmounts } from './checkoutAmounts';

describe('checkout amounts (spec §9)', () => {
  it('sends credits as cents and adds VAT = credits × rate / 100', () => {
    expect(checkoutAmounts(20, 21)).toEqual({
      creditsCents: 2000,
      vatRate: 21,
      vatCents: 420,
      totalCents: 2420,
    });
    expect(checkoutAmounts(10, 25.5)).toEqual({
      creditsCents: 1000,
      vatRate: 25.5,
      vatCents: 255,
      totalCents: 1255,
    });
  });

  it('rounds the VAT to the cent, halves up, without floating point drift', () => {
    // 25.5 % of $10.10 is 257.55 cents; 21 % of $10.05 is 211.05 cents; 17 % of $12.34 is 209.78.
    expect(checkoutAmounts(10.1, 25.5).vatCents).toBe(258);
    expect(checkoutAmounts(10.05, 21).vatCents).toBe(211);
    expect(checkoutAmounts(12.34, 17)).toMatchObject({ vatCents: 210, totalCents: 1444 });
    expect(checkoutAmounts(0.1 + 0.2 + 9.7, 20)).toMatchObject({ creditsCents: 1000, vatCents: 200 });
  });

  it('charges nothing at a rate of 0 (reverse charge, outside the EU)', () => {
    expect(checkoutAmounts(1000, 0)).toEqual({
      creditsCents: 100_000,
      vatRate: 0,
      vatCents: 0,
      totalCents: 100_000,
    });
  });
});
