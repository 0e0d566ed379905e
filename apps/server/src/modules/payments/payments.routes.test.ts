import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { PaymentInitRequest, PaymentsPage, Settings, TokenResponse } from '@verbatim/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretStore } from '../../platform/crypto/secret-store.js';
import { paymentWebhookPath } from '../../platform/payments/payment-provider.js';
import { loadSandboxSecret, sandboxSignatureHeader } from '../../platform/payments/sandbox-provider.js';
import { signatureHeader } from '../../platform/payments/webhook-signature.js';
import { pdfText } from '../../test-support/pdf-text.js';
import { bearer, createAccount, signIn } from '../../test-support/sign-in.js';
import { startTestRuntime, type TestRuntime } from '../../test-support/test-runtime.js';
import { waitFor } from '../../test-support/wait.js';
import { paymentCreditReference } from './payments.service.js';

/** A French private customer: domestic VAT at 20 % on $20 of credit. */
const privateFrench: PaymentInitRequest = {
  email: 'zoe@example.com',
  full_name: 'Zoë Martin',
  customerType: 'private',
  countryIso: 'FR',
  paymentMethod: 'visa',
  credits: 2000,
  vatRate: 20,
  totalPrice: 2400,
};

/** A German company with a VAT number valid by its check digits: reverse charge, no VAT. */
const germanCompany: PaymentInitRequest = {
  email: 'billing@muller.example',
  full_name: 'Jonas Müller',
  customerType: 'company',
  company_name: 'Müller Sprachtechnik GmbH',
  company_address: 'Hauptstraße 5\n10115 Berlin',
  vat_number: 'DE136308783',
  countryIso: 'DE',
  paymentMethod: 'mastercard',
  credits: 2000,
  vatRate: 0,
  totalPrice: 2000,
};

const goodCard = { number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123', name: 'Jonas Müller' };
const declinedCard = { ...goodCard, number: '4000 0000 0000 0002' };

/**
 * Stands between the sandbox and the product as the network does: the sandbox delivers its signed
 * webhooks over real HTTP to this address, which hands each request, bytes untouched, to the app.
 */
async function startWebhookRelay(target: () => TestRuntime): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void target()
        .app.inject({
          method: 'POST',
          url: paymentWebhookPath('sandbox'),
          headers: request.headers,
          payload: Buffer.concat(chunks),
        })
        .then((answer) => {
          response.writeHead(answer.statusCode, { 'content-type': 'application/json' });
          response.end(answer.body);
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('prepaid credits: checkout, webhooks, history and invoices', () => {
  let runtime: TestRuntime;
  let relay: { url: string; server: Server };
  let alice: TokenResponse;
  let bob: TokenResponse;
  let aliceId: string;

  beforeAll(async () => {
    relay = await startWebhookRelay(() => runtime);
    runtime = await startTestRuntime({
      env: {
        PUBLIC_URL: 'https://verbatim.test',
        SANDBOX_WEBHOOK_URL: relay.url,
        SELLER_NAME: 'Verbatim SAS',
        SELLER_ADDRESS: '12 rue de la Paix\\n75002 Paris',
        SELLER_COUNTRY: 'FR',
        SELLER_EMAIL: 'billing@verbatim.test',
      },
      workers: true,
    });
    const a = await createAccount(runtime, { email: 'alice@example.com' });
    await createAccount(runtime, { email: 'bob@example.com' });
    aliceId = a.id;
    alice = await signIn(runtime, 'alice@example.com');
    bob = await signIn(runtime, 'bob@example.com');
  }, 60_000);

  afterAll(async () => {
    await runtime.close();
    await new Promise((resolve) => relay.server.close(resolve));
  });

  const startCheckout = (tokens: TokenResponse, body: unknown) =>
    runtime.app.inject({
      method: 'POST',
      url: '/api/v1/limiter/payment-sessions',
      headers: bearer(tokens),
      payload: body as object,
    });

  async function openSession(tokens: TokenResponse, body: PaymentInitRequest) {
    const response = await startCheckout(tokens, body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ sessionId: string; url: string }>();
  }

  /** Pays on the sandbox's hosted page, as the browser's form post does. */
  function pay(checkoutUrl: string, card: typeof goodCard) {
    const url = new URL(checkoutUrl);
    return runtime.app.inject({
      method: 'POST',
      url: url.pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ session: url.searchParams.get('session') ?? '', ...card }).toString(),
    });
  }

  const ceiling = async (tokens: TokenResponse) =>
    (
      await runtime.app.inject({ method: 'GET', url: '/api/v1/settings', headers: bearer(tokens) })
    ).json<Settings>().thirdPartyApi.credits.ceiling;

  const history = async (tokens: TokenResponse, query = '') =>
    (
      await runtime.app.inject({
        method: 'GET',
        url: `/api/v1/limiter/payments${query}`,
        headers: bearer(tokens),
      })
    ).json<PaymentsPage>();

  const purchaseEntries = (accountId: string) =>
    runtime.database.db
      .selectFrom('ledger_entries')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('kind', '=', 'purchase')
      .execute();

  it('answers 401 without a console session', async () => {
    const response = await runtime.app.inject({
      method: 'POST',
      url: '/api/v1/limiter/payment-sessions',
      payload: privateFrench,
    });
    expect(response.statusCode).toBe(401);
    expect((await runtime.app.inject({ method: 'GET', url: '/api/v1/limiter/payments' })).statusCode).toBe(
      401,
    );
  });

  it("refuses the payment form's mistakes with the spec's messages", async () => {
    const cases: [Partial<PaymentInitRequest> & Record<string, unknown>, string, string][] = [
      [{ credits: 999 }, 'credits', 'Invalid credits'],
      [{ credits: 100_001 }, 'credits', 'Invalid credits'],
      [{ full_name: '' }, 'full_name', 'Invalid full name'],
      [{ countryIso: '' }, 'countryIso', 'Select valid country'],
      [{ paymentMethod: 'paypal' as never }, 'paymentMethod', 'Invalid payment method'],
      [{ email: 'nope' }, 'email', 'Please fill in a valid email address'],
      [{ customerType: 'company' }, 'company_name', 'Required company name'],
      [
        { customerType: 'company', company_name: 'X', vat_number: 'FR 12' },
        'vat_number',
        'Invalid vatNumber',
      ],
    ];
    for (const [change, field, message] of cases) {
      const response = await startCheckout(alice, { ...privateFrench, ...change });
      expect(response.statusCode, JSON.stringify(change)).toBe(400);
      const body = response.json<{ code: string; details: { path: string[]; message: string }[] }>();
      expect(body.code).toBe('VALIDATION_FAILED');
      expect(body.details).toContainEqual(expect.objectContaining({ path: [field], message }));
    }
  });

  it('refuses a VAT number that is not valid for its country, and an unknown country', async () => {
    const invalid = await startCheckout(alice, { ...germanCompany, vat_number: 'DE136308784' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ path: ['vat_number'], message: 'Invalid vatNumber' }],
    });
    const unknown = await startCheckout(alice, { ...privateFrench, countryIso: 'XX' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('refuses a VAT rate or total that is not the price', async () => {
    const rate = await startCheckout(alice, { ...privateFrench, vatRate: 0, totalPrice: 2000 });
    expect(rate.statusCode).toBe(409);
    expect(rate.json()).toMatchObject({ code: 'PAYMENT_AMOUNT_CHANGED' });
    const total = await startCheckout(alice, { ...privateFrench, totalPrice: 2399 });
    expect(total.statusCode).toBe(409);
    // A German company claiming the reverse charge without a VAT number pays German VAT (19 %).
    const noNumber = await startCheckout(alice, { ...germanCompany, vat_number: '' });
    expect(noNumber.json()).toMatchObject({ code: 'PAYMENT_AMOUNT_CHANGED' });
    expect((await history(alice)).total).toBe(0);
  });

  it('credits a reverse-charge purchase once the test card is paid, and issues its invoice', async () => {
    const before = await ceiling(alice);
    const session = await openSession(alice, germanCompany);
    expect(session.url).toMatch(/^https:\/\/verbatim\.test\/sandbox-checkout\?session=/);

    const url = new URL(session.url);
    const page = await runtime.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('TEST MODE');
    expect(page.body).toContain('20.00');

    // Opening the checkout adds nothing: only the provider's webhook does.
    expect(await ceiling(alice)).toBe(before);
    expect((await history(alice)).payments[0]).toMatchObject({ status: 'pending', invoiceNumber: null });

    const paid = await pay(session.url, goodCard);
    expect(paid.statusCode, paid.body).toBe(303);
    expect(paid.headers.location).toBe(`https://verbatim.test/payment/success/${session.sessionId}`);
    expect(await ceiling(alice)).toBe(before + 2000);

    const { payments, total } = await history(alice);
    expect(total).toBe(1);
    const payment = payments[0]!;
    expect(payment).toMatchObject({
      status: 'succeeded',
      paymentProvider: 'sandbox',
      amount: 2000,
      purchase: { ceiling: 2000 },
      invoiceNumber: `VBT-${new Date().getUTCFullYear()}-000001`,
      invoiceEnLocation: `/api/v1/limiter/payments/${payment.id}/invoice`,
    });
    expect(payment.transactionNumber).toBeTruthy();

    // A worker renders the PDF and keeps it; the download serves those bytes.
    const stored = path.join(
      runtime.config.storage.directory,
      'invoices',
      aliceId,
      `${payment.invoiceNumber}.pdf`,
    );
    await waitFor(() => existsSync(stored), 'the invoice PDF to be stored');
    const invoice = await runtime.app.inject({
      method: 'GET',
      url: payment.invoiceEnLocation!,
      headers: bearer(alice),
    });
    expect(invoice.statusCode).toBe(200);
    expect(invoice.headers['content-type']).toBe('application/pdf');
    expect(invoice.headers['content-disposition']).toBe(
      `attachment; filename="${payment.invoiceNumber}.pdf"`,
    );
    const text = await pdfText(invoice.rawPayload);
    for (const expected of [
      payment.invoiceNumber!,
      'Verbatim SAS',
      '12 rue de la Paix',
      'billing@verbatim.test',
      'Müller Sprachtechnik GmbH',
      'Hauptstraße 5',
      'DE136308783',
      'Germany',
      'Reverse charge',
      'Article 196',
      '$20.00',
      'USD',
      '•••• 4242',
    ]) {
      expect(text).toContain(expected);
    }

    expect(invoice.rawPayload.equals(await readFile(stored))).toBe(true);
    // Stored once: the second download serves the same bytes.
    const again = await runtime.app.inject({
      method: 'GET',
      url: payment.invoiceEnLocation!,
      headers: bearer(alice),
    });
    expect(again.rawPayload.equals(invoice.rawPayload)).toBe(true);

    // The checkout page of a paid session says so instead of taking the card again.
    const paidPage = await runtime.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
    expect(paidPage.statusCode).toBe(200);
    expect(paidPage.body).not.toContain('name="number"');
  });

  it('leaves the balance unchanged when the card is declined, and records the failure', async () => {
    const before = await ceiling(alice);
    const session = await openSession(alice, privateFrench);
    const declined = await pay(session.url, declinedCard);
    expect(declined.statusCode).toBe(402);
    expect(declined.body).toMatch(/declined/i);
    expect(await ceiling(alice)).toBe(before);
    const latest = (await history(alice)).payments[0]!;
    expect(latest).toMatchObject({
      status: 'failed',
      amount: 2400,
      invoiceNumber: null,
      invoiceEnLocation: null,
    });

    // A later success on the same checkout wins, and the domestic invoice carries French VAT.
    expect((await pay(session.url, goodCard)).statusCode).toBe(303);
    expect(await ceiling(alice)).toBe(before + 2000);
    const paid = (await history(alice)).payments[0]!;
    expect(paid).toMatchObject({
      status: 'succeeded',
      invoiceNumber: `VBT-${new Date().getUTCFullYear()}-000002`,
    });
    const text = await pdfText(
      (await runtime.app.inject({ method: 'GET', url: paid.invoiceEnLocation!, headers: bearer(alice) }))
        .rawPayload,
    );
    expect(text).toContain('VAT (20%)');
    expect(text).toContain('$24.00');
    expect(text).not.toContain('Reverse charge');
  });

  describe('webhook delivery', () => {
    let secret: string;
    const signed = (body: string, key = secret) => ({
      'content-type': 'application/json',
      [sandboxSignatureHeader]: signatureHeader(body, key),
    });
    const paidEvent = (id: string, sessionId: string, paymentId: string, amount: number) =>
      JSON.stringify({
        id,
        object: 'event',
        type: 'checkout.session.paid',
        created: Math.floor(Date.now() / 1000),
        data: {
          session_id: sessionId,
          payment_id: paymentId,
          amount,
          currency: 'usd',
          transaction: `txn_${id}`,
          card: { brand: 'visa', last4: '4242' },
          failure_reason: null,
        },
      });
    const deliver = (body: string, headers = signed(body)) =>
      runtime.app.inject({ method: 'POST', url: paymentWebhookPath('sandbox'), headers, payload: body });

    beforeAll(async () => {
      secret = await loadSandboxSecret(new SecretStore(runtime.database.db));
    });

    it('credits exactly once when the same payment is announced twice, and concurrently', async () => {
      const before = await ceiling(alice);
      const session = await openSession(alice, { ...privateFrench, credits: 5000, totalPrice: 6000 });
      const paymentId = (await history(alice)).payments[0]!.id;
      const repeated = paidEvent('evt_repeat', session.sessionId, paymentId, 6000);
      const deliveries = [
        ...Array.from({ length: 6 }, () => deliver(repeated)),
        ...Array.from({ length: 6 }, (_, n) =>
          deliver(paidEvent(`evt_other_${n}`, session.sessionId, paymentId, 6000)),
        ),
      ];
      const answers = await Promise.all(deliveries);
      expect(answers.map((answer) => answer.statusCode)).toEqual(answers.map(() => 200));
      expect(await ceiling(alice)).toBe(before + 5000);
      const entries = (await purchaseEntries(aliceId)).filter(
        (entry) => entry.reference === paymentCreditReference(paymentId),
      );
      expect(entries).toHaveLength(1);
      const invoices = await runtime.database.db
        .selectFrom('invoices')
        .select('number')
        .where('payment_id', '=', paymentId)
        .execute();
      expect(invoices).toHaveLength(1);
      // Delivered again later (a provider's retry): still nothing new.
      expect((await deliver(repeated)).statusCode).toBe(200);
      expect(await ceiling(alice)).toBe(before + 5000);
    });

    it('numbers invoices without gaps or repeats when payments land concurrently', async () => {
      const sessions = [];
      for (let n = 0; n < 5; n += 1) {
        const session = await openSession(alice, privateFrench);
        sessions.push({ ...session, paymentId: (await history(alice)).payments[0]!.id });
      }
      const answers = await Promise.all(
        sessions.map((session, n) =>
          deliver(paidEvent(`evt_many_${n}`, session.sessionId, session.paymentId, 2400)),
        ),
      );
      expect(answers.map((answer) => answer.statusCode)).toEqual(answers.map(() => 200));
      const numbers = (await runtime.database.db.selectFrom('invoices').select('number').execute())
        .map((invoice) => Number(invoice.number.split('-')[2]))
        .sort((a, b) => a - b);
      expect(numbers).toEqual(numbers.map((_, index) => index + 1));
    });

    it('refuses unsigned, forged and stale events without touching the balance', async () => {
      const before = await ceiling(alice);
      const session = await openSession(alice, privateFrench);
      const paymentId = (await history(alice)).payments[0]!.id;
      const body = paidEvent('evt_forged', session.sessionId, paymentId, 2400);
      const unsigned = await deliver(body, { 'content-type': 'application/json' } as never);
      expect(unsigned.statusCode).toBe(400);
      expect(unsigned.json()).toMatchObject({ code: 'WEBHOOK_SIGNATURE_INVALID' });
      expect((await deliver(body, signed(body, 'whsec_not-the-secret'))).statusCode).toBe(400);
      const stale = {
        'content-type': 'application/json',
        [sandboxSignatureHeader]: signatureHeader(body, secret, Math.floor(Date.now() / 1000) - 3600),
      };
      expect((await deliver(body, stale)).statusCode).toBe(400);
      expect((await deliver(body.replace('2400', '1'), signed(body))).statusCode).toBe(400);
      expect(await ceiling(alice)).toBe(before);
    });

    it('does not credit a payment whose paid amount differs from its price', async () => {
      const before = await ceiling(alice);
      const session = await openSession(alice, privateFrench);
      const paymentId = (await history(alice)).payments[0]!.id;
      expect((await deliver(paidEvent('evt_short', session.sessionId, paymentId, 100))).statusCode).toBe(200);
      expect(await ceiling(alice)).toBe(before);
      expect((await history(alice)).payments[0]).toMatchObject({ status: 'failed', invoiceNumber: null });
    });

    it('ignores an event for a session it does not know', async () => {
      const answer = await deliver(paidEvent('evt_unknown', 'cs_unknown', 'pay_unknown', 2400));
      expect(answer.statusCode).toBe(200);
    });
  });

  it('keeps payments and invoices to their owner', async () => {
    const { payments } = await history(alice);
    const withInvoice = payments.find((payment) => payment.invoiceEnLocation !== null)!;
    expect((await history(bob)).payments).toEqual([]);
    const stolen = await runtime.app.inject({
      method: 'GET',
      url: withInvoice.invoiceEnLocation!,
      headers: bearer(bob),
    });
    expect(stolen.statusCode).toBe(404);
    expect(stolen.json()).toMatchObject({ code: 'NOT_FOUND' });
    const missing = await runtime.app.inject({
      method: 'GET',
      url: '/api/v1/limiter/payments/pay_nothing/invoice',
      headers: bearer(alice),
    });
    expect(missing.statusCode).toBe(404);
  });

  it('pages the history by 10, newest first, and marks abandoned checkouts deleted', async () => {
    for (let n = 0; n < 7; n += 1) await openSession(alice, privateFrench);
    const first = await history(alice, '?start=0&limit=10');
    const second = await history(alice, '?start=10&limit=10');
    expect(first.payments).toHaveLength(10);
    expect(second.total).toBe(first.total);
    expect(first.payments.length + second.payments.length).toBe(first.total);
    const times = [...first.payments, ...second.payments].map((payment) => payment.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    const bad = await runtime.app.inject({
      method: 'GET',
      url: '/api/v1/limiter/payments?start=-1',
      headers: bearer(alice),
    });
    expect(bad.statusCode).toBe(400);

    await runtime.database.db
      .updateTable('payments')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('account_id', '=', aliceId)
      .where('status', '=', 'pending')
      .execute();
    const after = await history(alice, '?start=0&limit=100');
    expect(after.payments.filter((payment) => payment.status === 'pending')).toEqual([]);
    expect(after.payments.filter((payment) => payment.status === 'deleted').length).toBeGreaterThanOrEqual(7);
  });
});
