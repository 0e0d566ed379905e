/**
 * What the confirm payment modal shows and the payment-init payload carries (spec §9): the credit
 * bought, VAT = credits × rate / 100 and total = credits + VAT, each rounded to the cent.
 */
export interface CheckoutAmounts {
  /** Credit bought, in cents (dollars × 100). */
  creditsCents: number;
  /** The VAT rate applied, in percent (the `standardRate` of the VAT check). */
  vatRate: number;
  vatCents: number;
  totalCents: number;
}

/**
 * Works in whole cents and hundredths of a percent so that binary floating point cannot tip a
 * half cent the wrong way (25.5 % of $10.10 is 257.55 cents: 258). Halves round up. The server
 * recomputes the same figures and refuses a payload that differs.
 */
export function checkoutAmounts(creditsDollars: number, vatRate: number): CheckoutAmounts {
  const creditsCents = Math.round(creditsDollars * 100);
  const rateHundredths = Math.round(vatRate * 100);
  const vatCents = Math.round((creditsCents * rateHundredths) / 10_000);
  return { creditsCents, vatRate, vatCents, totalCents: creditsCents + vatCents };
}
