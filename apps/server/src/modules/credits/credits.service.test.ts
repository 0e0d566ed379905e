import type { ErrorCode } from '@verbatim/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../errors/app-error.js';
import { newId } from '../../lib/ids.js';
import { openDatabase, type Database } from '../../platform/db/database.js';
import { easyAltcha, solveAltcha } from '../../test-support/accounts.js';
import { captureLogs } from '../../test-support/log-capture.js';
import { createAccount } from '../../test-support/sign-in.js';
import { startTestRuntime, type TestRuntime } from '../../test-support/test-runtime.js';
import { AccountsRepository } from '../accounts/accounts.repository.js';
import { CreditsService, type LedgerResult } from './credits.service.js';

async function refusal(promise: Promise<unknown>): Promise<ErrorCode | 'resolved' | 'other'> {
  try {
    await promise;
    return 'resolved';
  } catch (error) {
    return error instanceof AppError ? error.code : 'other';
  }
}

describe('credits ledger', () => {
  let runtime: TestRuntime;
  let credits: CreditsService;
  beforeAll(async () => {
    runtime = await startTestRuntime({ adjust: easyAltcha });
    credits = runtime.services.credits;
  });
  afterAll(() => runtime.close());

  async function newKey(accountId: string, options: { monthlyCapCents?: number } = {}) {
    const account = await new AccountsRepository(runtime.database.db).findById(accountId);
    if (!account) throw new Error('no account');
    return runtime.services.apiKeys.create(
      account,
      { name: null, expiresAt: null, monthlyCapCents: options.monthlyCapCents ?? null },
      {},
    );
  }

  it('gives a new account its starting credit, recorded in the ledger with the account', async () => {
    const account = await createAccount(runtime);
    expect(await credits.credits(account.id)).toEqual({ ceiling: 500, currentUsage: 0, calls: 0 });
    const entries = await runtime.database.db
      .selectFrom('ledger_entries')
      .selectAll()
      .where('account_id', '=', account.id)
      .execute();
    expect(entries).toEqual([
      expect.objectContaining({
        kind: 'starting_credit',
        amount_micros: 5_000_000,
        reference: 'starting-credit',
      }),
    ]);

    const withoutCredit = await new AccountsRepository(runtime.database.db).insert({
      id: newId('acc'),
      email: `none-${newId('').slice(-8)}@example.com`,
      passwordHash: null,
      status: 'active',
      startingCreditCents: 0,
    });
    expect(await credits.credits(withoutCredit.id)).toEqual({ ceiling: 0, currentUsage: 0, calls: 0 });
  });

  it('gives the starting credit to accounts that sign up through registration', async () => {
    const email = `reg-${newId('').slice(-8)}@example.com`;
    const response = await runtime.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      payload: {
        email,
        password: 'Sup3r$ecret',
        passConf: 'Sup3r$ecret',
        reCaptchaKey: await solveAltcha(runtime.app),
      },
    });
    expect(response.statusCode).toBe(201);
    const account = await new AccountsRepository(runtime.database.db).findByEmail(email);
    expect(await credits.credits(account?.id ?? '')).toMatchObject({ ceiling: 500, currentUsage: 0 });
  });

  it('charges per started second at the configured price and derives the balance', async () => {
    const account = await createAccount(runtime);
    const first = await credits.charge({
      accountId: account.id,
      apiKeyId: null,
      product: 'http_api',
      seconds: 3600,
      reference: 'file:1',
    });
    // $0.10 per hour.
    expect(first.entry).toMatchObject({
      kind: 'usage',
      amount_micros: -100_000,
      product: 'http_api',
      billed_seconds: 3600,
      price_micros_per_hour: 100_000,
    });
    expect(first.balanceMicros).toBe(4_900_000);
    const second = await credits.charge({
      accountId: account.id,
      apiKeyId: null,
      product: 'ws_streaming',
      seconds: 0.4,
      reference: 'stream:1',
    });
    // One started second at $0.30 per hour: 83.33 micro-dollars, rounded up.
    expect(second.entry).toMatchObject({ amount_micros: -84, billed_seconds: 1 });
    expect(await credits.balanceMicros(account.id)).toBe(5_000_000 - 100_000 - 84);
    // Usage shows rounded up to the cent: 10 cents + 0.0084 cent.
    expect(await credits.credits(account.id)).toEqual({ ceiling: 500, currentUsage: 11, calls: 2 });
    expect(await credits.usages(account.id)).toEqual([
      { name: 'http_api', seconds: 3600, calls: 1, currentUsage: 10, pricePerHourMicros: 100_000 },
      { name: 'ws_streaming', seconds: 1, calls: 1, currentUsage: 1, pricePerHourMicros: 300_000 },
      { name: 'ws_prerecorded', seconds: 0, calls: 0, currentUsage: 0, pricePerHourMicros: 150_000 },
    ]);
  });

  it('charges a reference once: a repeat returns the original entry', async () => {
    const account = await createAccount(runtime);
    const charge = {
      accountId: account.id,
      apiKeyId: null,
      product: 'http_api' as const,
      seconds: 60,
      reference: 'r',
    };
    const first = await credits.charge(charge);
    const again = await credits.charge(charge);
    expect(first.replayed).toBe(false);
    expect(again.replayed).toBe(true);
    expect(again.entry.id).toBe(first.entry.id);
    expect(await credits.credits(account.id)).toMatchObject({ calls: 1 });

    const purchase = { accountId: account.id, cents: 1000, reference: 'payment:1' };
    expect((await credits.credit(purchase)).replayed).toBe(false);
    expect((await credits.credit(purchase)).replayed).toBe(true);
    expect(await credits.credits(account.id)).toMatchObject({ ceiling: 1500 });
    // One reference cannot name a purchase and a use.
    await expect(credits.charge({ ...charge, reference: 'payment:1' })).rejects.toThrow(/already used/);
  });

  it('refuses a charge the balance does not cover, and allows one that uses it up exactly', async () => {
    const account = await createAccount(runtime);
    // 180000 s at $0.10/h = $5.00 exactly: the whole starting credit.
    const tooMuch = { accountId: account.id, apiKeyId: null, product: 'http_api' as const, seconds: 180_001 };
    expect(await refusal(credits.charge({ ...tooMuch, reference: 'big' }))).toBe('INSUFFICIENT_CREDIT');
    await credits.charge({ ...tooMuch, seconds: 180_000, reference: 'exact' });
    expect(await credits.balanceMicros(account.id)).toBe(0);
    expect(await refusal(credits.charge({ ...tooMuch, seconds: 1, reference: 'one-more' }))).toBe(
      'INSUFFICIENT_CREDIT',
    );
    expect(await credits.credits(account.id)).toEqual({ ceiling: 500, currentUsage: 500, calls: 1 });
  });

  it("enforces a key's monthly cap, and refuses keys of other accounts or revoked ones", async () => {
    const account = await createAccount(runtime);
    const other = await createAccount(runtime);
    const capped = await newKey(account.id, { monthlyCapCents: 1 });
    const charge = { accountId: account.id, apiKeyId: capped.id, product: 'http_api' as const };
    // 300 s cost 8334 micro-dollars of the 10000 (1 cent) allowed; 100 s more would pass it.
    await credits.charge({ ...charge, seconds: 300, reference: 'a' });
    expect(await refusal(credits.charge({ ...charge, seconds: 100, reference: 'b' }))).toBe(
      'API_KEY_CAP_REACHED',
    );
    await credits.charge({ ...charge, seconds: 50, reference: 'c' });
    // The cap is the key's; the account's other usage is not limited by it.
    await credits.charge({ ...charge, apiKeyId: null, seconds: 100, reference: 'd' });
    expect((await runtime.services.apiKeys.list(account)).find((key) => key.id === capped.id)).toMatchObject({
      monthlyCapCents: 1,
      spentThisMonthCents: 1,
    });

    const othersKey = await newKey(other.id);
    expect(
      await refusal(credits.charge({ ...charge, apiKeyId: othersKey.id, seconds: 1, reference: 'e' })),
    ).toBe('FORBIDDEN');
    expect(
      await refusal(credits.charge({ ...charge, accountId: other.id, seconds: 1, reference: 'f' })),
    ).toBe('FORBIDDEN');
    await runtime.services.apiKeys.revoke(account, capped.id, {});
    expect(await refusal(credits.charge({ ...charge, seconds: 1, reference: 'g' }))).toBe('UNAUTHENTICATED');
    expect(await credits.credits(other.id)).toMatchObject({ currentUsage: 0, calls: 0 });
  });

  it('refuses nonsense: no seconds, an empty reference, an unknown account, a credit of no cents', async () => {
    const account = await createAccount(runtime);
    const charge = { accountId: account.id, apiKeyId: null, product: 'http_api' as const, reference: 'x' };
    expect(await refusal(credits.charge({ ...charge, seconds: 0 }))).toBe('BAD_REQUEST');
    expect(await refusal(credits.charge({ ...charge, seconds: Number.NaN }))).toBe('BAD_REQUEST');
    expect(await refusal(credits.charge({ ...charge, seconds: 1, reference: '' }))).toBe('BAD_REQUEST');
    expect(await refusal(credits.charge({ ...charge, seconds: 1, accountId: 'acc_nobody' }))).toBe(
      'NOT_FOUND',
    );
    expect(await refusal(credits.credit({ accountId: account.id, cents: 0, reference: 'p' }))).toBe(
      'BAD_REQUEST',
    );
    expect(await refusal(credits.credit({ accountId: account.id, cents: 1.5, reference: 'p' }))).toBe(
      'BAD_REQUEST',
    );
  });

  describe('under concurrency', () => {
    /** The runtime's pool plus, on PostgreSQL, three more: like four API processes charging at once. */
    let services: CreditsService[] = [];
    const extraDatabases: Database[] = [];
    beforeAll(async () => {
      services = [credits];
      const config = runtime.config.database;
      if (config.kind === 'postgres') {
        for (let i = 0; i < 3; i++) {
          const database = await openDatabase({ ...config, poolSize: 10 }, captureLogs().logger);
          extraDatabases.push(database);
          services.push(new CreditsService(database.db, runtime.config.prices.microsPerHour));
        }
      }
    });
    afterAll(async () => {
      for (const database of extraDatabases) await database.close();
    });

    function settle(results: PromiseSettledResult<LedgerResult>[]) {
      const fresh = results.filter((result) => result.status === 'fulfilled' && !result.value.replayed);
      const replayed = results.filter((result) => result.status === 'fulfilled' && result.value.replayed);
      const refusedCodes = results.flatMap((result) =>
        result.status === 'rejected'
          ? [result.reason instanceof AppError ? result.reason.code : String(result.reason)]
          : [],
      );
      return { fresh: fresh.length, replayed: replayed.length, refusedCodes };
    }

    it('neither loses nor doubles a charge, and never goes below zero', async () => {
      const account = await createAccount(runtime);
      // 600 s of streaming cost 5 cents: the $5.00 starting credit pays for exactly 100 of them.
      // 150 references, each sent twice, all at once, spread over every pool.
      const calls = Array.from({ length: 300 }, (_, index) => {
        const service = services[index % services.length] ?? credits;
        return service.charge({
          accountId: account.id,
          apiKeyId: null,
          product: 'ws_streaming',
          seconds: 600,
          reference: `stream:${index % 150}`,
        });
      });
      const outcome = settle(await Promise.allSettled(calls));

      expect(outcome.fresh).toBe(100);
      // The twin of every charge that went through found it and returned it.
      expect(outcome.replayed).toBe(100);
      // The other 50 references were refused, both times, and nothing else went wrong.
      expect(outcome.refusedCodes).toEqual(Array<string>(100).fill('INSUFFICIENT_CREDIT'));
      expect(await credits.balanceMicros(account.id)).toBe(0);
      const entries = await runtime.database.db
        .selectFrom('ledger_entries')
        .select(['reference', 'amount_micros'])
        .where('account_id', '=', account.id)
        .where('kind', '=', 'usage')
        .execute();
      expect(entries).toHaveLength(100);
      expect(new Set(entries.map((entry) => entry.reference)).size).toBe(100);
      expect(entries.every((entry) => entry.amount_micros === -50_000)).toBe(true);

      if (runtime.config.database.kind === 'postgres') {
        // The charges really ran on many connections at once (the pools keep them open).
        const { rows } = await runtime.database.pool.query<{ count: number }>(
          'select count(*)::int as count from pg_stat_activity where datname = current_database()',
        );
        expect(rows[0]?.count).toBeGreaterThan(10);
      }
    });

    it('keeps the balance exact when purchases arrive while charges run', async () => {
      const account = await createAccount(runtime);
      const charges = Array.from({ length: 200 }, (_, index) =>
        (services[index % services.length] ?? credits).charge({
          accountId: account.id,
          apiKeyId: null,
          product: 'ws_prerecorded',
          seconds: 1200,
          reference: `file:${index % 160}`,
        }),
      );
      // Ten purchases of $1.00, each confirmed twice.
      const purchases = Array.from({ length: 20 }, (_, index) =>
        (services[(index + 1) % services.length] ?? credits).credit({
          accountId: account.id,
          cents: 100,
          reference: `payment:${index % 10}`,
        }),
      );
      const [chargeResults, purchaseResults] = await Promise.all([
        Promise.allSettled(charges),
        Promise.allSettled(purchases),
      ]);
      const charged = settle(chargeResults);
      const purchased = settle(purchaseResults);

      expect(purchased).toEqual({ fresh: 10, replayed: 10, refusedCodes: [] });
      expect(charged.refusedCodes.every((code) => code === 'INSUFFICIENT_CREDIT')).toBe(true);
      // 1200 s of pre-recorded audio cost 5 cents. The $5.00 starting credit pays for 100 of the
      // 160 references whatever the order; the rest depends on when the purchases land.
      expect(charged.fresh).toBeGreaterThanOrEqual(100);
      expect(charged.fresh).toBeLessThanOrEqual(160);
      expect(charged.fresh + charged.replayed + charged.refusedCodes.length).toBe(200);
      const balance = await credits.balanceMicros(account.id);
      expect(balance).toBe(15_000_000 - charged.fresh * 50_000);
      expect(balance).toBeGreaterThanOrEqual(0);
      const references = await runtime.database.db
        .selectFrom('ledger_entries')
        .select('reference')
        .where('account_id', '=', account.id)
        .where('kind', '=', 'usage')
        .execute();
      expect(references).toHaveLength(charged.fresh);
      expect(new Set(references.map((entry) => entry.reference)).size).toBe(charged.fresh);
      expect(await credits.credits(account.id)).toEqual({
        ceiling: 1500,
        currentUsage: charged.fresh * 5,
        calls: charged.fresh,
      });
    });
  });
});
