// Metering benchmark: charge() throughput of the ledger (one account, serialised by its row lock;
// and many accounts at once), then HTTP throughput of a public API route authenticated with an API
// key versus a console access token. In-process, on PGlite, or on PostgreSQL when DATABASE_URL is
// set. Run with `npm run bench:ledger`. Options: BENCH_SECONDS (default 5), BENCH_CONNECTIONS (10),
// BENCH_CHARGES (500).
import autocannon from 'autocannon';
import { bearer, createAccount, signIn } from '../apps/server/src/test-support/sign-in.js';
import { startTestRuntime, type TestRuntime } from '../apps/server/src/test-support/test-runtime.js';
import { pooled } from '../apps/server/src/lib/pooled.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const charges = Number(process.env.BENCH_CHARGES ?? 500);

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

async function chargeFigures(runtime: TestRuntime) {
  const { credits } = runtime.services;
  // Enough credit for every charge: a $1000 purchase per account.
  const newFundedAccount = async () => {
    const account = await createAccount(runtime);
    await credits.credit({ accountId: account.id, cents: 100_000, reference: 'bench-funds' });
    return account.id;
  };
  const charge = (accountId: string, reference: string) =>
    credits.charge({ accountId, apiKeyId: null, product: 'http_api', seconds: 30, reference });

  const rows = [];
  const single = await newFundedAccount();
  const sequentialMs = await timed(() => pooled(charges, 1, (i) => charge(single, `seq:${i}`)));
  rows.push({ case: 'one account, one at a time', charges, ms: sequentialMs });

  const contended = await newFundedAccount();
  const contendedMs = await timed(() => pooled(charges, 20, (i) => charge(contended, `par:${i}`)));
  rows.push({ case: 'one account, 20 at once (row lock)', charges, ms: contendedMs });

  const accounts = await Promise.all(Array.from({ length: 20 }, () => newFundedAccount()));
  const spreadMs = await timed(() =>
    pooled(charges, 20, (i) => charge(accounts[i % accounts.length] ?? single, `spread:${i}`)),
  );
  rows.push({ case: '20 accounts, 20 at once', charges, ms: spreadMs });

  return rows.map((row) => ({
    ...row,
    ms: Math.round(row.ms),
    'charges/s': Math.round((row.charges * 1000) / row.ms),
  }));
}

async function httpFigures(runtime: TestRuntime) {
  const account = await createAccount(runtime);
  const consoleHeaders = bearer(await signIn(runtime, account.email));
  const key = await runtime.services.apiKeys.create(
    account,
    { name: 'bench', expiresAt: null, monthlyCapCents: null },
    {},
  );
  const address = await runtime.app.listen({ host: '127.0.0.1', port: 0 });
  const load = async (title: string, headers: Record<string, string>) => {
    const result = await autocannon({
      url: `${address}/api/v1/limiter/usages`,
      headers,
      connections,
      duration: seconds,
    });
    return {
      route: title,
      'requests/s': Math.round(result.requests.average),
      'p50 ms': result.latency.p50,
      'p99 ms': result.latency.p99,
      'non-2xx/errors': result.non2xx + result.errors + result.timeouts,
    };
  };
  return [
    await load('GET /limiter/usages, x-api-key', { 'x-api-key': key.apiKey }),
    await load('GET /limiter/usages, console token', consoleHeaders),
  ];
}

async function main(): Promise<void> {
  const database = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';
  const runtime = await startTestRuntime({ env: { RATE_LIMIT_MAX: '100000000' } });
  try {
    console.log(`Verbatim metering benchmark, database ${database}`);
    console.table(await chargeFigures(runtime));
    console.log(`HTTP: ${connections} connections, ${seconds} s per case`);
    const http = await httpFigures(runtime);
    console.table(http);
    if (http.some((row) => row['non-2xx/errors'] > 0)) process.exitCode = 1;
  } finally {
    await runtime.close();
  }
}

await main();
