import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../errors/app-error.js';
import { sessionFor, StripeStandIn } from '../../test-support/stripe-stand-in.js';
import { CHECKOUT_SESSION_ID, type CheckoutSessionRequest } from './payment-provider.js';
import { StripePaymentProvider } from './stripe-provider.js';

const secretKey = 'sk_test_51VerbatimStandIn';
const webhookSecret = 'whsec_verbatim_stand_in_secret';

const request: CheckoutSessionRequest = {
  paymentId: 'pay_01JVERBATIM',
  amountCents: 12_100,
  currency: 'usd',
  description: 'Prepaid speech-to-text API credits',
  customerEmail: 'zoe@example.com',
  locale: 'fr',
  successUrl: `https://verbatim.test/payment/success/${CHECKOUT_SESSION_ID}`,
  cancelUrl: 'https://verbatim.test/billing',
  metadata: { accountId: 'acc_42' },
};

describe('Stripe provider', () => {
  const standIn = new StripeStandIn();
  let apiUrl: string;

  beforeAll(async () => {
    apiUrl = await standIn.start();
  });
  afterAll(() => standIn.close());
  beforeEach(() => {
    standIn.requests.length = 0;
    standIn.answers = [{ status: 200, body: sessionFor }];
  });

  describe('checkout sessions', () => {
    it('opens a Checkout Session through the SDK with the payment, amount and return URLs', async () => {
      const provider = new StripePaymentProvider({ secretKey, webhookSecret, apiUrl });
      const session = await provider.createCheckoutSession(request);

      expect(session).toEqual({
        sessionId: 'cs_test_a1VerbatimStandInSession',
        checkoutUrl:
          'https://checkout.stripe.com/c/pay/cs_test_a1VerbatimStandInSession#fidkdWxOYHwnPyd1blpxYHZxWjA0',
        expiresAt: new Date(1_772_086_400 * 1000),
      });
      expect(standIn.requests).toHaveLength(1);
      const sent = standIn.requests[0]!;
      expect(sent.method).toBe('POST');
      expect(sent.url).toBe('/v1/checkout/sessions');
      expect(sent.headers.authorization).toBe(`Bearer ${secretKey}`);
      expect(sent.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
      expect(sent.headers['idempotency-key']).toBe('verbatim-checkout-pay_01JVERBATIM');
      expect(Object.fromEntries(sent.form)).toEqual({
        mode: 'payment',
        'allowed_payment_method_types[0]': 'card',
        'line_items[0][quantity]': '1',
        'line_items[0][price_data][currency]': 'usd',
        'line_items[0][price_data][unit_amount]': '12100',
        'line_items[0][price_data][product_data][name]': 'Prepaid speech-to-text API credits',
        customer_email: 'zoe@example.com',
        client_reference_id: 'pay_01JVERBATIM',
        locale: 'fr',
        // Stripe replaces the placeholder with the session id when it redirects.
        success_url: 'https://verbatim.test/payment/success/{CHECKOUT_SESSION_ID}',
        cancel_url: 'https://verbatim.test/billing',
        'metadata[accountId]': 'acc_42',
        'metadata[paymentId]': 'pay_01JVERBATIM',
        'payment_intent_data[metadata][paymentId]': 'pay_01JVERBATIM',
      });
    });

    it('retries a failed request with the same idempotency key, so Stripe opens one session only', async () => {
      standIn.answers = [
        { status: 500, body: { error: { type: 'api_error', message: 'Something went wrong' } } },
        { status: 200, body: sessionFor },
      ];
      const provider = new StripePaymentProvider({ secretKey, webhookSecret, apiUrl, maxNetworkRetries: 1 });
      const session = await provider.createCheckoutSession(request);
      expect(session.sessionId).toBe('cs_test_a1VerbatimStandInSession');
      expect(standIn.requests).toHaveLength(2);
      expect(new Set(standIn.requests.map((sent) => sent.headers['idempotency-key']))).toEqual(
        new Set(['verbatim-checkout-pay_01JVERBATIM']),
      );
    });

    it('turns a refusal by Stripe into PAYMENT_PROVIDER_ERROR (502)', async () => {
      standIn.answers = [
        {
          status: 400,
          body: {
            error: {
              type: 'invalid_request_error',
              code: 'amount_too_small',
              message: 'The Checkout Session total amount due must add up to at least $0.50 usd',
              param: 'line_items[0][price_data][unit_amount]',
            },
          },
        },
      ];
      const provider = new StripePaymentProvider({ secretKey, webhookSecret, apiUrl });
      const failure = await provider.createCheckoutSession(request).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(AppError);
      expect(failure).toMatchObject({ code: 'PAYMENT_PROVIDER_ERROR', statusCode: 502 });
      expect((failure as AppError).cause).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
      expect(standIn.requests).toHaveLength(1);
    });
  });

  describe('webhooks', () => {
    const provider = new StripePaymentProvider({ secretKey, webhookSecret, apiUrl: null });
    const stripe = new Stripe(secretKey);

    function stripeEvent(type: string, session: Record<string, unknown> = {}) {
      return JSON.stringify(
        {
          id: 'evt_1VerbatimStandIn',
          object: 'event',
          api_version: Stripe.API_VERSION,
          created: 1_772_000_100,
          data: {
            object: {
              id: 'cs_test_a1VerbatimStandInSession',
              object: 'checkout.session',
              amount_total: 12_100,
              client_reference_id: 'pay_01JVERBATIM',
              currency: 'usd',
              metadata: { paymentId: 'pay_01JVERBATIM' },
              mode: 'payment',
              payment_intent: 'pi_3VerbatimStandIn',
              payment_status: 'paid',
              status: 'complete',
              ...session,
            },
          },
          livemode: false,
          pending_webhooks: 1,
          request: { id: null, idempotency_key: null },
          type,
        },
        null,
        2,
      );
    }

    const signed = (payload: string, options: { secret?: string; timestamp?: number } = {}) => ({
      'stripe-signature': stripe.webhooks.generateTestHeaderString({
        payload,
        secret: options.secret ?? webhookSecret,
        ...(options.timestamp ? { timestamp: options.timestamp } : {}),
      }),
    });

    async function refusal(body: Buffer, headers: Record<string, string>) {
      const error = await provider.verifyWebhook(body, headers).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ code: 'WEBHOOK_SIGNATURE_INVALID', statusCode: 400 });
    }

    it('reads a paid checkout.session.completed as a succeeded payment', async () => {
      const payload = stripeEvent('checkout.session.completed');
      await expect(provider.verifyWebhook(Buffer.from(payload), signed(payload))).resolves.toEqual({
        provider: 'stripe',
        eventId: 'evt_1VerbatimStandIn',
        type: 'succeeded',
        sessionId: 'cs_test_a1VerbatimStandInSession',
        paymentId: 'pay_01JVERBATIM',
        amountCents: 12_100,
        currency: 'usd',
        transactionNumber: 'pi_3VerbatimStandIn',
        card: null,
        failureReason: null,
        occurredAt: new Date(1_772_000_100 * 1000),
      });
    });

    it('maps the other checkout session events, and ignores the rest', async () => {
      const typeOf = async (type: string, session?: Record<string, unknown>) => {
        const payload = stripeEvent(type, session);
        return (await provider.verifyWebhook(Buffer.from(payload), signed(payload)))?.type ?? null;
      };
      expect(await typeOf('checkout.session.completed', { payment_status: 'unpaid' })).toBe('pending');
      expect(await typeOf('checkout.session.async_payment_succeeded')).toBe('succeeded');
      expect(await typeOf('checkout.session.async_payment_failed', { payment_status: 'unpaid' })).toBe(
        'failed',
      );
      expect(await typeOf('checkout.session.expired', { status: 'expired', payment_intent: null })).toBe(
        'expired',
      );
      expect(await typeOf('payment_intent.succeeded')).toBeNull();
      expect(await typeOf('customer.created')).toBeNull();
    });

    it('finds the payment in the metadata when the client reference is missing', async () => {
      const payload = stripeEvent('checkout.session.completed', {
        client_reference_id: null,
        payment_intent: { id: 'pi_3Expanded', object: 'payment_intent' },
      });
      await expect(provider.verifyWebhook(Buffer.from(payload), signed(payload))).resolves.toMatchObject({
        paymentId: 'pay_01JVERBATIM',
        transactionNumber: 'pi_3Expanded',
      });
    });

    it('refuses a tampered body, another secret, an old signature and a missing one', async () => {
      const payload = stripeEvent('checkout.session.completed');
      const headers = signed(payload);
      await refusal(Buffer.from(payload.replace('12100', '99900')), headers);
      // The same JSON with other whitespace is other bytes: the raw body must reach the check.
      await refusal(Buffer.from(JSON.stringify(JSON.parse(payload))), headers);
      await refusal(Buffer.from(payload), signed(payload, { secret: 'whsec_someone_else' }));
      await refusal(
        Buffer.from(payload),
        signed(payload, { timestamp: Math.floor(Date.now() / 1000) - 600 }),
      );
      await refusal(Buffer.from(payload), {});
    });
  });
});
