import type { PaymentInitRequest, PaymentsPage, Settings, TokenResponse } from '@verbatim/contracts';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentWebhookPath } from '../../platform/payments/payment-provider.js';
import { bearer, createAccount, signIn } from '../../test-support/sign-in.js';
import { sessionFor, StripeStandIn } from '../../test-support/stripe-stand-in.js';
import { startTestRuntime, type TestRuntime } from '../../test-support/test-runtime.js';

const webhookSecret = 'whsec_verbatim_product_test';

/** An Irish consumer: no VAT number, so Irish VAT (23 %) on $10. */
const irishConsumer: PaymentInitRequest = {
  email: 'aoife@example.ie',
  full_name: 'Aoife Byrne',
  customerType: 'private',
  countryIso: 'IE',
  paymentMethod: 'visa',
  credits: 1000,
  vatRate: 23,
  totalPrice: 1230,
};

/** The product with PAYMENT_PROVIDER=stripe, against a local stand-in for Stripe's API. */
describe('prepaid credits through Stripe Checkout', () => {
  const standIn = new StripeStandIn();
  const stripe = new Stripe('sk_test_unused');
  let runtime: TestRuntime;
  let tokens: TokenResponse;
  let sessions = 0;

  beforeAll(async () => {
    const apiUrl = await standIn.start();
    standIn.answers = [
      {
        status: 200,
        body: (form: URLSearchParams) =>
          sessionFor(form, `cs_test_${++sessions}`, Math.floor(Date.now() / 1000)),
      },
    ];
    runtime = await startTestRuntime({
      env: {
        PUBLIC_URL: 'https://verbatim.test',
        PAYMENT_PROVIDER: 'stripe',
        STRIPE_SECRET_KEY: 'sk_test_51VerbatimProduct',
        STRIPE_WEBHOOK_SECRET: webhookSecret,
        STRIPE_API_URL: apiUrl,
      },
    });
    await createAccount(runtime, { email: 'aoife@example.ie' });
    tokens = await signIn(runtime, 'aoife@example.ie');
  }, 60_000);

  afterAll(async () => {
    await runtime.close();
    await standIn.close();
  });

  const ceiling = async () =>
    (
      await runtime.app.inject({ method: 'GET', url: '/api/v1/settings', headers: bearer(tokens) })
    ).json<Settings>().thirdPartyApi.credits.ceiling;
  const latestPayment = async () =>
    (
      await runtime.app.inject({ method: 'GET', url: '/api/v1/limiter/payments', headers: bearer(tokens) })
    ).json<PaymentsPage>().payments[0]!;

  function event(id: string, type: string, sessionId: string, session: Record<string, unknown>) {
    const payload = JSON.stringify({
      id,
      object: 'event',
      api_version: '2025-08-27.basil',
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: sessionId, object: 'checkout.session', currency: 'usd', ...session } },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    });
    return runtime.app.inject({
      method: 'POST',
      url: paymentWebhookPath('stripe'),
      headers: {
        'content-type': 'application/json',
        'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret }),
      },
      payload,
    });
  }

  it('opens a Checkout Session for the total, and credits it on the signed completion event only', async () => {
    const before = await ceiling();
    const created = await runtime.app.inject({
      method: 'POST',
      url: '/api/v1/limiter/payment-sessions',
      headers: bearer(tokens),
      payload: irishConsumer,
    });
    expect(created.statusCode, created.body).toBe(201);
    const session = created.json<{ sessionId: string; url: string }>();
    expect(session.url).toMatch(/^https:\/\/checkout\.stripe\.com\//);
    const sent = standIn.requests.at(-1)!.form;
    expect(sent.get('line_items[0][price_data][unit_amount]')).toBe('1230');
    expect(sent.get('success_url')).toBe('https://verbatim.test/payment/success/{CHECKOUT_SESSION_ID}');

    const payment = await latestPayment();
    expect(payment).toMatchObject({ paymentProvider: 'stripe', status: 'pending', amount: 1230 });
    const paid = {
      amount_total: 1230,
      client_reference_id: payment.id,
      metadata: { paymentId: payment.id },
      payment_intent: 'pi_3VerbatimProduct',
      payment_status: 'paid',
      status: 'complete',
    };

    const unsigned = await runtime.app.inject({
      method: 'POST',
      url: paymentWebhookPath('stripe'),
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(unsigned.statusCode).toBe(400);

    const answers = await Promise.all([
      event('evt_1', 'checkout.session.completed', session.sessionId, paid),
      event('evt_1', 'checkout.session.completed', session.sessionId, paid),
      event('evt_2', 'checkout.session.completed', session.sessionId, paid),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200]);
    expect(await ceiling()).toBe(before + 1000);
    expect(await latestPayment()).toMatchObject({
      status: 'succeeded',
      transactionNumber: 'pi_3VerbatimProduct',
      invoiceNumber: expect.stringMatching(/^VBT-\d{4}-000001$/) as unknown,
    });
  });

  it('marks an expired session deleted, and a failed asynchronous payment failed', async () => {
    const open = async () =>
      (
        await runtime.app.inject({
          method: 'POST',
          url: '/api/v1/limiter/payment-sessions',
          headers: bearer(tokens),
          payload: irishConsumer,
        })
      ).json<{ sessionId: string }>().sessionId;
    const before = await ceiling();
    const expired = await open();
    await event('evt_exp', 'checkout.session.expired', expired, {
      status: 'expired',
      payment_status: 'unpaid',
    });
    expect(await latestPayment()).toMatchObject({ status: 'deleted' });

    const failing = await open();
    await event('evt_pending', 'checkout.session.completed', failing, {
      payment_status: 'unpaid',
      status: 'complete',
    });
    expect(await latestPayment()).toMatchObject({ status: 'pending' });
    await event('evt_failed', 'checkout.session.async_payment_failed', failing, { payment_status: 'unpaid' });
    expect(await latestPayment()).toMatchObject({ status: 'failed' });
    expect(await ceiling()).toBe(before);
  });
});
