import { purchaseAmounts, type PurchaseAmounts } from '@verbatim/contracts';

/** What the confirm payment modal shows and the payment-init payload carries (spec §9). */
export type CheckoutAmounts = PurchaseAmounts;

/** The amounts of buying `creditsDollars` of credit at `vatRate` percent, as the server computes them. */
export function checkoutAmounts(creditsDollars: number, vatRate: number): CheckoutAmounts {
  return purchaseAmounts(Math.round(creditsDollars * 100), vatRate);
}
