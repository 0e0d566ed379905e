import {
  maxPurchaseCents,
  minPurchaseCents,
  type PaymentInitRequest,
  paymentInitRequestSchema,
  validationMessages as m,
  vatNumberInputSchema,
} from '@verbatim/contracts';
import { z } from 'zod';
import type { CheckoutAmounts } from './checkoutAmounts';

const payment = paymentInitRequestSchema.shape;

/**
 * The top-up form (spec §5 Payment form), built from the fields of the payment-init contract. The
 * customer types dollars; the payload carries cents. Company fields only count for companies.
 */
export const topUpFormSchema = z
  .object({
    /** Dollars, $10 to $1000 (spec §9); the number input may hand over its text while typed. */
    credits: z.coerce
      .number<number | string>({ error: m.creditsInvalid })
      .min(minPurchaseCents / 100, m.creditsInvalid)
      .max(maxPurchaseCents / 100, m.creditsInvalid),
    email: payment.email,
    full_name: payment.full_name,
    countryIso: payment.countryIso,
    customerType: payment.customerType,
    company_name: payment.company_name,
    company_address: payment.company_address,
    vat_number: z.string().trim(),
    paymentMethod: payment.paymentMethod,
  })
  .superRefine(
    (form, ctx) => {
      if (form.customerType !== 'company') return;
      if (typeof form.company_name !== 'string' || form.company_name.trim() === '') {
        ctx.addIssue({ code: 'custom', message: m.companyNameRequired, path: ['company_name'] });
      }
      if (!vatNumberInputSchema.safeParse(form.vat_number).success) {
        ctx.addIssue({ code: 'custom', message: m.vatNumberInvalid, path: ['vat_number'] });
      }
    },
    // Also when another field is wrong (no payment method picked yet), so that every problem shows
    // at once; the fields read above are then checked for their type.
    { when: (payload) => typeof payload.value === 'object' && payload.value !== null },
  )
  .transform((form) =>
    form.customerType === 'company'
      ? form
      : { ...form, company_name: '', company_address: '', vat_number: '' },
  );

export type TopUpFormInput = z.input<typeof topUpFormSchema>;
export type TopUpFormOutput = z.output<typeof topUpFormSchema>;

/** The `POST /limiter/payment-sessions` payload of a checked form and the amounts the customer confirmed. */
export function paymentInitOf(form: TopUpFormOutput, amounts: CheckoutAmounts): PaymentInitRequest {
  return {
    email: form.email,
    full_name: form.full_name,
    customerType: form.customerType,
    vat_number: form.vat_number,
    company_name: form.company_name,
    company_address: form.company_address,
    countryIso: form.countryIso,
    paymentMethod: form.paymentMethod,
    credits: amounts.creditsCents,
    vatRate: amounts.vatRate,
    totalPrice: amounts.totalCents,
  };
}
