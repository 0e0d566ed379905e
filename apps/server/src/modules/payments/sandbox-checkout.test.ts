import helmet from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { registerErrorHandler } from '../../http/error-handler.js';
import { randomSecret } from '../../platform/crypto/tokens.js';
import {
  CHECKOUT_SESSION_ID,
  paymentWebhookPath,
  type CheckoutSessionRequest,
  type PaymentEvent,
} from '../../platform/payments/payment-provider.js';
import { SandboxPaymentProvider, type SandboxOptions } from '../../platform/payments/sandbox-provider.js';
import { signatureHeader } from '../../platform/payments/webhook-signature.js';
import { captureLogs } from '../../test-support/log-capture.js';
import { paymentWebhookRoutes, type PaymentEventHandler } from './payment-webhook.routes.js';
import { sandboxCheckoutRoutes, type SandboxSessionState } from './sandbox-checkout.routes.js';

const publicUrl = 'https://verbatim.test';
const checkoutRequest: CheckoutSessionRequest = {
  paymentId: 'pay_01JSANDBOX',
  amountCents: 12_100,
  currency: 'usd',
  description: 'Prepaid speech-to-text API credits',
  customerEmail: 'zoe@example.com',
  locale: 'en',
  successUrl: `${publicUrl}/payment/success/${CHECKOUT_SESSION_ID}`,
  cancelUrl: `${publicUrl}/billing`,
};

function bareApp(): FastifyInstance {
  const app = Fastify({ logger: false });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  return app;
}

/**
 * Two nodes of the product sharing one sandbox secret: one serves the checkout page, the other
 * receives the webhook over real HTTP (as the sandbox delivers it to the public URL).
 */
describe('sandbox checkout', () => {
  const secret = `whsec_${randomSecret()}`;
  const logs = captureLogs('warn');
  let receiver: FastifyInstance;
  let checkout: FastifyInstance;
  let sandbox: SandboxPaymentProvider;
  let webhookUrl: string;
  let received: PaymentEvent[];
  let handleEvent: PaymentEventHandler;
  let sessionState: SandboxSessionState;

  const sandboxWith = (options: Partial<SandboxOptions> = {}) =>
    new SandboxPaymentProvider({
      secret,
      publicUrl,
      webhookUrl,
      logger: logs.logger,
      delivery: { firstBackoffMs: 5 },
      ...options,
    });

  beforeAll(async () => {
    receiver = bareApp();
    const verifier = new SandboxPaymentProvider({
      secret,
      publicUrl,
      webhookUrl: 'http://unused.test',
      logger: logs.logger,
    });
    await receiver.register(
      paymentWebhookRoutes(verifier, (event) => handleEvent(event)),
      { prefix: '/api/v1' },
    );
    const address = await receiver.listen({ port: 0, host: '127.0.0.1' });
    webhookUrl = `${address}${paymentWebhookPath('sandbox')}`;

    sandbox = sandboxWith();
    checkout = bareApp();
    // The product's default security headers, which the checkout page replaces with its own policy.
    await checkout.register(helmet);
    await checkout.register(
      sandboxCheckoutRoutes({
        sandbox,
        merchant: 'Verbatim',
        sessionState: () => Promise.resolve(sessionState),
      }),
    );
    await checkout.ready();
  });
  afterAll(async () => {
    await checkout.close();
    await receiver.close();
  });
  beforeEach(() => {
    received = [];
    handleEvent = (event) => {
      received.push(event);
      return Promise.resolve();
    };
    sessionState = 'open';
  });

  async function openSession(changes: Partial<CheckoutSessionRequest> = {}, provider = sandbox) {
    const session = await provider.createCheckoutSession({ ...checkoutRequest, ...changes });
    const url = new URL(session.checkoutUrl);
    return { ...session, path: `${url.pathname}${url.search}`, token: url.searchParams.get('session') ?? '' };
  }

  function pay(token: string, card: Record<string, string>, app = checkout) {
    return app.inject({
      method: 'POST',
      url: '/sandbox-checkout',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ session: token, ...card }).toString(),
    });
  }
  const goodCard = { number: '4242 4242 4242 4242', expiry: '12/40', cvc: '123', name: 'Zoë Müller' };

  describe('sessions', () => {
    it('opens a session as a sealed checkout URL on the public URL, unreadable from outside', async () => {
      const before = Date.now();
      const session = await openSession();
      expect(session.sessionId).toMatch(/^cs_sandbox_[\w-]{24}$/);
      expect(session.checkoutUrl.startsWith(`${publicUrl}/sandbox-checkout?session=`)).toBe(true);
      expect(session.expiresAt.getTime() - before).toBeGreaterThanOrEqual(86_400_000 - 1000);
      expect(session.expiresAt.getTime() - before).toBeLessThanOrEqual(86_400_000 + 1000);
      const decoded = Buffer.from(session.token, 'base64url').toString('latin1');
      expect(decoded).not.toContain('zoe@example.com');
      expect(decoded).not.toContain('pay_01JSANDBOX');
      expect(sandbox.openSession(session.token)).toMatchObject({
        status: 'open',
        session: {
          sessionId: session.sessionId,
          paymentId: 'pay_01JSANDBOX',
          amountCents: 12_100,
          successUrl: `${publicUrl}/payment/success/${session.sessionId}`,
          cancelUrl: `${publicUrl}/billing`,
        },
      });
    });

    it('refuses a token altered by one character, or sealed with another secret', async () => {
      const { token } = await openSession();
      const middle = Math.floor(token.length / 2);
      const altered = `${token.slice(0, middle)}${token[middle] === 'A' ? 'B' : 'A'}${token.slice(middle + 1)}`;
      expect(sandbox.openSession(altered)).toEqual({ status: 'invalid' });
      const stranger = sandboxWith({ secret: `whsec_${randomSecret()}` });
      expect(stranger.openSession(token)).toEqual({ status: 'invalid' });
      expect(sandbox.openSession('')).toEqual({ status: 'invalid' });
    });

    it('refuses an amount that is not a positive number of cents', async () => {
      await expect(
        sandbox.createCheckoutSession({ ...checkoutRequest, amountCents: 0 }),
      ).rejects.toMatchObject({
        code: 'BAD_REQUEST',
      });
      await expect(
        sandbox.createCheckoutSession({ ...checkoutRequest, amountCents: 10.5 }),
      ).rejects.toMatchObject({
        code: 'BAD_REQUEST',
      });
    });
  });

  describe('the hosted page', () => {
    it('shows the card form in TEST MODE, with the amount, description and e-mail', async () => {
      const { path, token } = await openSession();
      const response = await checkout.inject({ method: 'GET', url: path });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-store');
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain(`form-action 'self' ${publicUrl}`);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('script-src');
      const html = response.body;
      expect(html).toContain('<html lang="en">');
      expect(html).toContain('<strong>TEST MODE</strong>');
      expect(html).toContain('$121.00');
      expect(html).toContain('Prepaid speech-to-text API credits');
      expect(html).toContain('zoe@example.com');
      expect(html).toContain(`name="session" value="${token}"`);
      expect(html).toContain('autocomplete="cc-number"');
      expect(html).toContain('<label for="expiry">');
      expect(html).toContain(`href="${publicUrl}/billing"`);
      expect(html).toContain('4242 4242 4242 4242');
      expect(html).not.toMatch(/<script|https?:\/\/(?!verbatim\.test)/);
    });

    it('speaks French when asked, or when the session was opened in French', async () => {
      const english = await openSession();
      const asked = await checkout.inject({ method: 'GET', url: `${english.path}&lang=fr` });
      expect(asked.body).toContain('<html lang="fr">');
      expect(asked.body).toContain('MODE TEST');
      expect(asked.body).toContain('121,00 $US');

      const french = await openSession({ locale: 'fr' });
      const byDefault = await checkout.inject({ method: 'GET', url: french.path });
      expect(byDefault.body).toContain('Numéro de carte');

      const notice = await checkout.inject({
        method: 'GET',
        url: '/sandbox-checkout?session=nonsense',
        headers: { 'accept-language': 'de-DE, fr;q=0.8, en;q=0.5' },
      });
      expect(notice.body).toContain('Lien de paiement non valide');
    });

    it('answers a broken link with a page saying so', async () => {
      for (const url of [
        '/sandbox-checkout',
        '/sandbox-checkout?session=abc',
        `/sandbox-checkout?session=${'x'.repeat(200)}`,
      ]) {
        const response = await checkout.inject({ method: 'GET', url });
        expect(response.statusCode, url).toBe(404);
        expect(response.body).toContain('This checkout link is not valid');
        expect(response.body).toContain('TEST MODE');
      }
    });

    it('says when a session expired, and takes no payment for it', async () => {
      let now = new Date();
      const clocked = sandboxWith({ now: () => now });
      const app = bareApp();
      await app.register(sandboxCheckoutRoutes({ sandbox: clocked, merchant: 'Verbatim' }));
      const { path, token } = await openSession({}, clocked);
      now = new Date(now.getTime() + 86_400_000 + 1000);
      const page = await app.inject({ method: 'GET', url: path });
      expect(page.statusCode).toBe(410);
      expect(page.body).toContain('This checkout session has expired');
      expect(page.body).toContain(`href="${publicUrl}/billing"`);
      const attempt = await pay(token, goodCard, app);
      expect(attempt.statusCode).toBe(410);
      expect(received).toEqual([]);
      await app.close();
    });

    it('shows a paid session as complete, and does not charge it again', async () => {
      const { path, token, sessionId } = await openSession();
      sessionState = 'paid';
      const page = await checkout.inject({ method: 'GET', url: path });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('This checkout session has already been paid.');
      expect(page.body).toContain(`href="${publicUrl}/payment/success/${sessionId}"`);
      expect((await pay(token, goodCard)).statusCode).toBe(200);
      expect(received).toEqual([]);
    });
  });

  describe('paying', () => {
    it('charges a test card: the signed webhook reaches the product, then the browser goes to the success URL', async () => {
      const { token, sessionId } = await openSession();
      const response = await pay(token, goodCard);
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe(`${publicUrl}/payment/success/${sessionId}`);
      expect(received).toHaveLength(1);
      expect(received[0]).toMatchObject({
        provider: 'sandbox',
        type: 'succeeded',
        sessionId,
        paymentId: 'pay_01JSANDBOX',
        amountCents: 12_100,
        currency: 'usd',
        card: { brand: 'visa', last4: '4242' },
        failureReason: null,
      });
      expect(received[0]?.eventId).toMatch(/^evt_sandbox_/);
      expect(received[0]?.transactionNumber).toMatch(/^pi_sandbox_/);
    });

    it('declines a decline test card with a clear message, reports the failure, and lets the customer try again', async () => {
      const { token, sessionId } = await openSession();
      const response = await pay(token, { ...goodCard, number: '4000 0000 0000 9995' });
      expect(response.statusCode).toBe(402);
      expect(response.body).toContain(
        '<p class="alert" role="alert">Your card has insufficient funds. Try another card.</p>',
      );
      expect(response.body).toContain('<form method="post" action="/sandbox-checkout"');
      expect(response.body).toContain('value="Zoë Müller"');
      expect(response.body).not.toContain('4000 0000 0000 9995"');
      expect(received).toHaveLength(1);
      expect(received[0]).toMatchObject({
        type: 'failed',
        sessionId,
        failureReason: 'insufficient_funds',
        transactionNumber: null,
        card: { brand: 'visa', last4: '9995' },
      });

      const retry = await pay(token, goodCard);
      expect(retry.statusCode).toBe(303);
      expect(received.map((event) => event.type)).toEqual(['failed', 'succeeded']);
    });

    it('refuses real cards: a sandbox never takes real money', async () => {
      const { token } = await openSession();
      const response = await pay(token, { ...goodCard, number: '4111 1111 1111 1111' });
      expect(response.statusCode).toBe(402);
      expect(response.body).toContain('This test checkout accepts test cards only.');
      expect(received[0]).toMatchObject({ type: 'failed', failureReason: 'not_a_test_card' });
    });

    it("shows the form's problems next to their fields and sends nothing", async () => {
      const { token } = await openSession({ locale: 'fr' });
      const response = await pay(token, {
        number: '4242 4242 4242 4241',
        expiry: '01/20',
        cvc: '',
        name: '',
      });
      expect(response.statusCode).toBe(422);
      const html = response.body;
      expect(html).toContain('id="number-error">Saisissez un numéro de carte valide.</p>');
      expect(html).toContain('id="expiry-error">Cette carte a expiré.</p>');
      expect(html).toMatch(/id="cvc" [^>]*aria-describedby="cvc-hint cvc-error" aria-invalid="true"/);
      expect(html).toContain('id="name-error">');
      expect(html).toContain('value="4242 4242 4242 4241"');
      expect(received).toEqual([]);
    });

    it('retries the webhook until the product acknowledges it', async () => {
      let calls = 0;
      handleEvent = (event) => {
        calls += 1;
        if (calls === 1) return Promise.reject(new Error('database briefly unavailable'));
        received.push(event);
        return Promise.resolve();
      };
      const { token } = await openSession();
      const response = await pay(token, goodCard);
      expect(response.statusCode).toBe(303);
      expect(calls).toBe(2);
      expect(received).toHaveLength(1);
    });

    it('does not claim success when the product never acknowledges the payment', async () => {
      let calls = 0;
      handleEvent = () => {
        calls += 1;
        return Promise.reject(new Error('database down'));
      };
      const { token } = await openSession();
      const response = await pay(token, goodCard);
      expect(response.statusCode).toBe(502);
      expect(response.headers.location).toBeUndefined();
      expect(response.body).toContain('Verbatim could not confirm this payment, so nothing was charged.');
      expect(calls).toBe(3);
    });
  });

  describe('the webhook route', () => {
    const event = JSON.stringify({
      id: 'evt_sandbox_forged',
      object: 'event',
      type: 'checkout.session.paid',
      created: Math.floor(Date.now() / 1000),
      data: {
        session_id: 'cs_sandbox_forged',
        payment_id: 'pay_01JSANDBOX',
        amount: 100_000,
        currency: 'usd',
        transaction: 'pi_sandbox_forged',
        card: { brand: 'visa', last4: '4242' },
        failure_reason: null,
      },
    });
    const post = (headers: Record<string, string>, body: string = event) =>
      fetch(webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      });

    it('refuses an event without a valid signature, and acts on none', async () => {
      const unsigned = await post({});
      expect(unsigned.status).toBe(400);
      expect(await unsigned.json()).toMatchObject({ code: 'WEBHOOK_SIGNATURE_INVALID' });
      const wrongSecret = await post({ 'verbatim-sandbox-signature': signatureHeader(event, 'whsec_guess') });
      expect(wrongSecret.status).toBe(400);
      const stale = await post({
        'verbatim-sandbox-signature': signatureHeader(event, secret, Math.floor(Date.now() / 1000) - 3600),
      });
      expect(stale.status).toBe(400);
      expect(received).toEqual([]);
    });

    it('acts on a correctly signed event once per delivery, whatever the content type', async () => {
      const signed = await post({
        'verbatim-sandbox-signature': signatureHeader(event, secret),
        'content-type': 'text/plain',
      });
      expect(signed.status).toBe(200);
      expect(await signed.json()).toEqual({ received: true });
      expect(received).toMatchObject([{ sessionId: 'cs_sandbox_forged', amountCents: 100_000 }]);
    });

    it('answers 400 to an empty body', async () => {
      const empty = await fetch(webhookUrl, { method: 'POST' });
      expect(empty.status).toBe(400);
      expect(await empty.json()).toMatchObject({ code: 'BAD_REQUEST' });
    });
  });
});
