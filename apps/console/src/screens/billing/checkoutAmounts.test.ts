import { describe, expect, it } from 'vitest';
import { checkoutAmounts } from './checkoutAmounts';

describe('checkout amounts (spec §9)', () => {
  it('sends the credits typed in dollars as cents, with the VAT and total the server computes', () => {
    expect(checkoutAmounts(20, 21)).toEqual({
      creditsCents: 2000,
      vatRate: 21,
      vatCents: 420,
      totalCents: 2420,
    });
    expect(checkoutAmounts(10.1, 25.5)).toMatchObject({
      creditsCents: 1010,
      vatCents: 258,
      totalCents: 1268,
    });
  });

  it('turns dollars into whole cents without floating point drift', () => {
    expect(checkoutAmounts(0.1 + 0.2 + 9.7, 20)).toMatchObject({ creditsCents: 1000, vatCents: 200 });
    expect(checkoutAmounts(19.99, 0)).toEqual({
      creditsCents: 1999,
      vatRate: 0,
      vatCents: 0,
      totalCents: 1999,
    });
  });
});
