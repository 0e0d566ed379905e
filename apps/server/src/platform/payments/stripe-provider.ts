import Stripe from 'stripe';
import { AppError } from '../../errors/app-error.js';
import {
  headerValue,
  type CheckoutSession,
  type CheckoutSessionRequest,
  type PaymentEvent,
  type PaymentEventType,
  type PaymentProvider,
  type WebhookHeaders,
} from './payment-provider.js';
import { defaultToleranceSeconds } from './webhook-signature.js';

export interface StripeOptions {
  /** sk_live_… or sk_test_… */
  secretKey: string;
  /** whsec_… of the webhook endpoint registered in Stripe's dashboard. */
  webhookSecret: string;
  /** Another address for Stripe's API (tests use a local stand-in); null for api.stripe.com. */
  apiUrl: string | null;
  /** Network retries of the SDK (with idempotency keys, so a retry never opens a second session). */
  maxNetworkRetries?: number;
  timeoutMs?: number;
}

type CheckoutSessionObject = Stripe.Checkout.Session;

/** Stripe Checkout through the official SDK; webhooks are verified with the SDK's signature check. */
export class StripePaymentProvider implements PaymentProvider {
  readonly id = 'stripe' as const;
  readonly #stripe: Stripe;

  constructor(private readonly options: StripeOptions) {
    const api = options.apiUrl ? new URL(options.apiUrl) : undefined;
    this.#stripe = new Stripe(options.secretKey, {
      maxNetworkRetries: options.maxNetworkRetries ?? 2,
      timeout: options.timeoutMs ?? 30_000,
      // Latency reports to Stripe about our own calls: nothing we need to share.
      telemetry: false,
      appInfo: { name: 'Verbatim' },
      ...(api
        ? {
            host: api.hostname,
            port: api.port || (api.protocol === 'https:' ? 443 : 80),
            protocol: api.protocol === 'https:' ? 'https' : 'http',
          }
        : {}),
    });
  }

  async createCheckoutSession(request: CheckoutSessionRequest): Promise<CheckoutSession> {
    let session: CheckoutSessionObject;
    try {
      session = await this.#stripe.checkout.sessions.create(
        {
          mode: 'payment',
          allowed_payment_method_types: ['card'],
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: request.currency,
                unit_amount: request.amountCents,
                product_data: { name: request.description },
              },
            },
          ],
          customer_email: request.customerEmail,
          client_reference_id: request.paymentId,
          locale: request.locale,
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
          metadata: { ...request.metadata, paymentId: request.paymentId },
          // The payment intent carries our id too, for whoever looks at it in the dashboard.
          payment_intent_data: { metadata: { paymentId: request.paymentId } },
        },
        // One session per payment, even when a network retry repeats the request.
        { idempotencyKey: `verbatim-checkout-${request.paymentId}` },
      );
    } catch (error) {
      throw new AppError('PAYMENT_PROVIDER_ERROR', 'Stripe could not open a checkout session.', undefined, {
        cause: error,
      });
    }
    if (!session.url) {
      throw new AppError('PAYMENT_PROVIDER_ERROR', 'Stripe opened a checkout session without a URL.');
    }
    return {
      sessionId: session.id,
      checkoutUrl: session.url,
      expiresAt: new Date(session.expires_at * 1000),
    };
  }

  verifyWebhook(rawBody: Buffer, headers: WebhookHeaders): Promise<PaymentEvent | null> {
    return Promise.resolve().then(() => this.#readEvent(rawBody, headers));
  }

  #readEvent(rawBody: Buffer, headers: WebhookHeaders): PaymentEvent | null {
    const signature = headerValue(headers, 'stripe-signature');
    if (!signature) {
      throw new AppError('WEBHOOK_SIGNATURE_INVALID', 'The webhook has no Stripe-Signature header.');
    }
    let event: Stripe.Event;
    try {
      event = this.#stripe.webhooks.constructEvent(
        rawBody,
        signature,
        this.options.webhookSecret,
        defaultToleranceSeconds,
      );
    } catch (error) {
      if (error instanceof Stripe.errors.StripeSignatureVerificationError) {
        throw new AppError(
          'WEBHOOK_SIGNATURE_INVALID',
          `The webhook signature is not valid: ${error.message}`,
        );
      }
      throw new AppError('BAD_REQUEST', 'The Stripe event is not readable.', undefined, { cause: error });
    }
    switch (event.type) {
      case 'checkout.session.completed':
        // Card payments are paid when the session completes; delayed methods complete unpaid first.
        return toPaymentEvent(event, event.data.object.payment_status === 'paid' ? 'succeeded' : 'pending');
      case 'checkout.session.async_payment_succeeded':
        return toPaymentEvent(event, 'succeeded');
      case 'checkout.session.async_payment_failed':
        return toPaymentEvent(event, 'failed');
      case 'checkout.session.expired':
        return toPaymentEvent(event, 'expired');
      default:
        return null;
    }
  }
}

function toPaymentEvent(
  event: Stripe.Event & { data: { object: CheckoutSessionObject } },
  type: PaymentEventType,
): PaymentEvent {
  const session = event.data.object;
  const paymentIntent = session.payment_intent;
  return {
    provider: 'stripe',
    eventId: event.id,
    type,
    sessionId: session.id,
    paymentId: session.client_reference_id ?? session.metadata?.paymentId ?? null,
    amountCents: session.amount_total,
    currency: session.currency,
    transactionNumber: typeof paymentIntent === 'string' ? paymentIntent : (paymentIntent?.id ?? null),
    card: null,
    failureReason: type === 'failed' ? 'async_payment_failed' : null,
    occurredAt: new Date(event.created * 1000),
  };
}
