// Payments benchmark: how fast verified webhooks turn into credit (event recorded, payment locked,
// ledger credit, invoice number and document in one transaction, then the PDF job queued), and
// what rendering an invoice PDF costs the worker that does it,
// sequentially and with concurrent deliveries, and the cost of opening checkout sessions. In-process,
// on PGlite, or on PostgreSQL when DATABASE_URL is set. Run with `npm run bench:payments`. Options:
// BENCH_PAYMENTS (default 200), BENCH_PARALLEL (10).
import { paymentInitRequestSchema, type PaymentInit } from '@verbatim/contracts';
import { SecretStore } from '../apps/server/src/platform/crypto/secret-store.js';
import { paymentWebhookPath } from '../apps/server/src/platform/payments/payment-provider.js';
import {
  loadSandboxSecret,
  sandboxSignatureHeader,
} from '../apps/server/src/platform/payments/sandbox-provider.js';
import { signatureHeader } from '../apps/server/src/platform/payments/webhook-signature.js';
import { renderInvoicePdf } from '../apps/server/src/modules/invoices/invoice-pdf.js';
import { invoiceOfStored } from '../apps/server/src/modules/invoices/stored-invoice.js';
import { createAccount } from '../apps/server/src/test-support/sign-in.js';
import { startTestRuntime, type TestRuntime } from '../apps/server/src/test-support/test-runtime.js';
import { pooled } from '../apps/server/src/lib/pooled.js';

const payments = Number(process.env.BENCH_PAYMENTS ?? 200);
const parallel = Number(process.env.BENCH_PARALLEL ?? 10);

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

const init: PaymentInit = paymentInitRequestSchema.parse({
  email: 'bench@example.com',
  full_name: 'Bench Customer',
  customerType: 'company',
  company_name: 'Bench GmbH',
  company_address: 'Hauptstraße 5, 10115 Berlin',
  vat_number: 'DE136308783',
  countryIso: 'DE',
  paymentMethod: 'visa',
  credits: 2000,
  vatRate: 0,
  totalPrice: 2000,
});

async function run(runtime: TestRuntime, width: number) {
  const account = await createAccount(runtime);
  const sessions: string[] = [];
  const openMs = await timed(() =>
    pooled(payments, width, async () => {
      sessions.push((await runtime.services.payments.createSession(account, init)).sessionId);
    }),
  );
  const rows = await runtime.database.db
    .selectFrom('payments')
    .select(['id', 'session_id'])
    .where('account_id', '=', account.id)
    .execute();
  const secret = await loadSandboxSecret(new SecretStore(runtime.database.db));
  const deliver = async (index: number) => {
    const row = rows[index];
    if (!row?.session_id) throw new Error('a payment has no session');
    const body = JSON.stringify({
      id: `evt_bench_${row.id}`,
      object: 'event',
      type: 'checkout.session.paid',
      created: Math.floor(Date.now() / 1000),
      data: {
        session_id: row.session_id,
        payment_id: row.id,
        amount: 2000,
        currency: 'usd',
        transaction: `txn_${row.id}`,
        card: { brand: 'visa', last4: '4242' },
        failure_reason: null,
      },
    });
    const answer = await runtime.app.inject({
      method: 'POST',
      url: paymentWebhookPath('sandbox'),
      headers: {
        'content-type': 'application/json',
        [sandboxSignatureHeader]: signatureHeader(body, secret),
      },
      payload: body,
    });
    if (answer.statusCode !== 200) throw new Error(`webhook answered ${answer.statusCode}: ${answer.body}`);
  };
  const creditMs = await timed(() => pooled(rows.length, width, deliver));
  const credits = await runtime.services.credits.credits(account.id);
  if (credits.ceiling !== 500 + payments * 2000) throw new Error(`credited ${credits.ceiling} cents`);
  return {
    deliveries: width === 1 ? 'one at a time' : `${width} at once`,
    'sessions/s': Math.round((payments * 1000) / openMs),
    'credited payments/s': Math.round((payments * 1000) / creditMs),
    'ms per payment': Number((creditMs / payments).toFixed(1)),
  };
}

const runtime = await startTestRuntime({ env: { PUBLIC_URL: 'http://127.0.0.1:9' } });
try {
  const database = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';
  const figures = [await run(runtime, 1), await run(runtime, parallel)];
  console.log(`Payments: ${payments} payments per run, ${database}, in-process`);
  console.table(figures);
  const invoice = await runtime.database.db
    .selectFrom('invoices')
    .select('document')
    .executeTakeFirstOrThrow();
  const document = invoiceOfStored(invoice.document);
  let bytes = 0;
  const renders = 20;
  const renderMs = await timed(() =>
    pooled(renders, 1, async () => {
      bytes = (await renderInvoicePdf(document, 'en')).length;
    }),
  );
  console.log(
    `rendering one invoice PDF (a worker's job, after the commit): ${(renderMs / renders).toFixed(1)} ms (${Math.round(bytes / 1024)} KiB)`,
  );
} finally {
  await runtime.close();
}
