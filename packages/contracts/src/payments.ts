import { z } from 'zod';
import { emailSchema } from './auth.js';
import { validationMessages } from './validation-messages.js';
import { countryIsoSchema, vatNumberInputSchema, vatValidationMessages } from './vat.js';

/**
 * Prepaid credits bought by card (spec §3 Payment, Payment-init, Payment session; §5 Payment form;
 * §9 limits). Money is in integer cents throughout; the currency is always USD.
 */

/**
 * The payment form's messages (spec §5), word for word: the same texts as `validationMessages`
 * (where the console finds their translations), gathered for the payment form.
 */
export const paymentValidationMessages = {
  creditsInvalid: validationMessages.creditsInvalid,
  companyNameRequired: validationMessages.companyNameRequired,
  paymentMethodInvalid: validationMessages.paymentMethodInvalid,
  fullNameInvalid: validationMessages.fullNameInvalid,
  countryInvalid: vatValidationMessages.countryInvalid,
  vatNumberInvalid: vatValidationMessages.vatNumberInvalid,
} as const;

const m = paymentValidationMessages;

/** Spec §9: a purchase is $10 to $1000 of credit; the API counts it in cents (dollars × 100). */
export const minPurchaseCents = 1_000;
export const maxPurchaseCents = 100_000;
export const defaultPurchaseCents = 1_000;

/** Who took the money: the built-in sandbox checkout (test mode) or Stripe. Shown as "paid via". */
export const paymentProviderIdSchema = z.enum(['sandbox', 'stripe']);
export type PaymentProviderId = z.infer<typeof paymentProviderIdSchema>;

/**
 * Spec §3: the statuses of a payment. `pending` until the provider's webhook says otherwise;
 * `failed` after a declined card (a later success on the same checkout still wins); `deleted`
 * when the checkout session expired or was abandoned without payment.
 */
export const paymentStatusSchema = z.enum(['pending', 'succeeded', 'failed', 'deleted']);
export type PaymentStatus = z.infer<typeof paymentStatusSchema>;

export const customerTypeSchema = z.enum(['private', 'company']);
export type CustomerType = z.infer<typeof customerTypeSchema>;

/**
 * The card brand picked on the payment form (spec §3 paymentMethodDetails {type card, brand}). It is
 * recorded with the payment; the checkout itself accepts any card.
 */
export const paymentMethodSchema = z.enum(['visa', 'mastercard', 'amex'], { error: m.paymentMethodInvalid });
export type PaymentMethod = z.infer<typeof paymentMethodSchema>;

/**
 * `POST /limiter/payment-sessions` (spec §3 Payment-init payload). Values are coerced to their types
 * (a form may send strings). `vatRate` and `totalPrice` are what the customer was shown: the server
 * recomputes both from `credits`, the country and the VAT number, and refuses a mismatch.
 */
export const paymentInitRequestSchema = z
  .object({
    email: emailSchema,
    full_name: z
      .string({ error: m.fullNameInvalid })
      .trim()
      .min(1, m.fullNameInvalid)
      .max(128, m.fullNameInvalid),
    customerType: customerTypeSchema,
    /** Spec §5: letters, digits, underscore and hyphen; the server then checks it (VIES). */
    vat_number: vatNumberInputSchema.default(''),
    company_name: z.string().trim().max(128).default(''),
    company_address: z.string().trim().max(512).default(''),
    countryIso: z.string({ error: m.countryInvalid }).pipe(countryIsoSchema),
    paymentMethod: paymentMethodSchema,
    /** Credit bought, in cents: 1000 ($10) to 100000 ($1000). */
    credits: z.coerce
      .number({ error: m.creditsInvalid })
      .int(m.creditsInvalid)
      .min(minPurchaseCents, m.creditsInvalid)
      .max(maxPurchaseCents, m.creditsInvalid),
    /** The VAT rate applied, in percent (e.g. 21 or 25.5); 0 for reverse charge and outside the EU. */
    vatRate: z.coerce.number().min(0).max(100),
    /** Credits plus VAT, in cents. */
    totalPrice: z.coerce.number().int().min(minPurchaseCents),
  })
  .superRefine((form, ctx) => {
    if (form.customerType === 'company' && form.company_name === '') {
      ctx.addIssue({ code: 'custom', message: m.companyNameRequired, path: ['company_name'] });
    }
  })
  .meta({ id: 'PaymentInitRequest' });
export type PaymentInitRequest = z.input<typeof paymentInitRequestSchema>;
export type PaymentInit = z.output<typeof paymentInitRequestSchema>;

/** The answer of `POST /limiter/payment-sessions`: the console sends the browser to `url`. */
export const paymentSessionSchema = z
  .object({
    /** The provider's checkout session id; the success page is /payment/success/{sessionId}. */
    sessionId: z.string(),
    url: z.url(),
  })
  .meta({ id: 'PaymentSession' });
export type PaymentSession = z.infer<typeof paymentSessionSchema>;

/** One line of the billing history (spec §3 Payment; `GET /limiter/payments`). */
export const paymentSchema = z
  .object({
    id: z.string(),
    createdAt: z.iso.datetime({ offset: true }),
    /** The provider's reference of the money movement (Stripe's payment intent); null until paid. */
    transactionNumber: z.string().nullable(),
    paymentProvider: paymentProviderIdSchema,
    status: paymentStatusSchema,
    /** What the customer paid, VAT included, in cents. */
    amount: z.int().nonnegative(),
    /** `ceiling`: the credit this purchase adds, in cents. */
    purchase: z.object({ ceiling: z.int().nonnegative() }),
    /** Present once the payment succeeded and its invoice was issued. */
    invoiceNumber: z.string().nullable(),
    /** Where the English invoice PDF is downloaded. */
    invoiceEnLocation: z.string().nullable(),
  })
  .meta({ id: 'Payment' });
export type Payment = z.infer<typeof paymentSchema>;

/** Spec §9: the billing history is read 10 payments at a time. */
export const paymentsPageSize = 10;

/** `GET /limiter/payments?start=&limit=`: `start` is the offset of the first payment (0, 10, 20…). */
export const paymentsPageQuerySchema = z.object({
  start: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(paymentsPageSize),
});
export type PaymentsPageQuery = z.input<typeof paymentsPageQuerySchema>;

/**
 * One page of the billing history, newest first. `total` counts every payment of the account, so a
 * paged table knows how many pages there are (a page of 10 from `start`).
 */
export const paymentsPageSchema = z
  .object({
    payments: z.array(paymentSchema),
    total: z.int().nonnegative(),
  })
  .meta({ id: 'PaymentsPage' });
export type PaymentsPage = z.infer<typeof paymentsPageSchema>;

/** What a purchase costs (spec §9): the credit bought, VAT = credits × rate / 100 and total = credits + VAT. */
export interface PurchaseAmounts {
  /** Credit bought, in cents. */
  creditsCents: number;
  /** The VAT rate applied, in percent (the `standardRate` of the VAT check). */
  vatRate: number;
  vatCents: number;
  totalCents: number;
}

/**
 * The one computation of a purchase's VAT and total, shared by the confirm modal and the server,
 * which refuses a payment-init payload whose figures differ. Works in whole cents and hundredths of
 * a percent so that binary floating point cannot tip a half cent the wrong way (25.5 % of $10.10 is
 * 257.55 cents: 258). Halves round up.
 */
export function purchaseAmounts(creditsCents: number, vatRate: number): PurchaseAmounts {
  const rateHundredths = Math.round(vatRate * 100);
  const vatCents = Math.round((creditsCents * rateHundredths) / 10_000);
  return { creditsCents, vatRate, vatCents, totalCents: creditsCents + vatCents };
}
