import type { PaymentProviderId } from '@verbatim/contracts';

export type { PaymentProviderId };

/**
 * Stands in a success URL for the provider's checkout session id. It is Stripe's own placeholder;
 * the sandbox honours it too, so the payment service builds one URL for both:
 * `${publicUrl}/payment/success/${CHECKOUT_SESSION_ID}`.
 */
export const CHECKOUT_SESSION_ID = '{CHECKOUT_SESSION_ID}';

export interface CheckoutSessionRequest {
  /** Our payment's id; every event of this session carries it back. */
  paymentId: string;
  /** What the customer pays, VAT included, in cents. */
  amountCents: number;
  currency: 'usd';
  /** The one line shown on the checkout page, e.g. "Prepaid speech-to-text API credits". */
  description: string;
  customerEmail: string;
  /** Language of the checkout page. */
  locale: 'en' | 'fr';
  /** Where the browser goes after paying; may contain CHECKOUT_SESSION_ID. */
  successUrl: string;
  /** Where the browser goes when the customer gives up. */
  cancelUrl: string;
  /** Extra labels stored with the session, for the provider's dashboard (events do not return them). */
  metadata?: Record<string, string>;
}

export interface CheckoutSession {
  /** The provider's id of the session (the {sessionId} of /payment/success/{sessionId}). */
  sessionId: string;
  /** Where to send the browser to pay. */
  checkoutUrl: string;
  /** After this the session can no longer be paid; an `expired` event may follow. */
  expiresAt: Date;
}

/**
 * What a verified webhook says about one checkout session. Crediting must be idempotent per
 * payment (not per event): providers deliver the same fact more than once, sometimes under
 * different event ids (a sandbox checkout paid twice, a Stripe retry).
 *
 * - `succeeded`: the money is there; credit the payment (final).
 * - `pending`: the customer finished the checkout but the payment method settles later.
 * - `failed`: a card was declined or an asynchronous payment failed; the customer may still
 *   pay the same session with another card, so a later `succeeded` wins.
 * - `expired`: the session can no longer be paid (the payment becomes `deleted`).
 */
export type PaymentEventType = 'succeeded' | 'pending' | 'failed' | 'expired';

export interface PaymentEvent {
  provider: PaymentProviderId;
  /** The provider's id of this delivery's event (for logs and deduplication of deliveries). */
  eventId: string;
  type: PaymentEventType;
  sessionId: string;
  /** Our payment id as given to createCheckoutSession; null if the provider lost it (never expected). */
  paymentId: string | null;
  /** The amount of the session, in cents: compare it with the payment's before crediting. */
  amountCents: number | null;
  currency: string | null;
  /** The provider's reference of the money movement (Stripe: the payment intent id). */
  transactionNumber: string | null;
  /** The card, when the provider tells (the sandbox does; Stripe's session event does not). */
  card: { brand: string; last4: string } | null;
  /** Why a payment failed, in the provider's words (e.g. `insufficient_funds`). */
  failureReason: string | null;
  occurredAt: Date;
}

/** Request headers as Node and Fastify give them (lower-case names). */
export type WebhookHeaders = Record<string, string | string[] | undefined>;

/**
 * One payment provider: opens hosted checkout sessions and reads its signed webhooks. Credits are
 * added only on a verified webhook, never on the browser's return to the success URL.
 */
export interface PaymentProvider {
  readonly id: PaymentProviderId;
  /** Opens a checkout session; throws AppError PAYMENT_PROVIDER_ERROR when the provider fails. */
  createCheckoutSession(request: CheckoutSessionRequest): Promise<CheckoutSession>;
  /**
   * Checks the signature of a webhook request over its exact bytes and reads the event. Returns
   * null for events that say nothing about a checkout session's payment; throws AppError
   * WEBHOOK_SIGNATURE_INVALID when the signature is missing, wrong or too old.
   */
  verifyWebhook(rawBody: Buffer, headers: WebhookHeaders): Promise<PaymentEvent | null>;
}

/** The first value of a header, whichever way it arrived. */
export function headerValue(headers: WebhookHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/** Where a provider's webhooks arrive: register `${PUBLIC_URL}${paymentWebhookPath('stripe')}` in Stripe. */
export function paymentWebhookPath(provider: PaymentProviderId): string {
  return `/api/v1/limiter/payments/webhook/${provider}`;
}
