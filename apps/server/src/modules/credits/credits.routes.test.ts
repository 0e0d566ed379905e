import { usagesSchema } from '@verbatim/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config/config.js';
import { bearer, createAccount, signIn } from '../../test-support/sign-in.js';
import { startTestRuntime, type TestRuntime } from '../../test-support/test-runtime.js';

describe('prices and starting credit configuration', () => {
  it("defaults to the spec's prices and $5.00 of starting credit", () => {
    const config = loadConfig({});
    expect(config.prices.microsPerHour).toEqual({
      http_api: 100_000,
      ws_streaming: 300_000,
      ws_prerecorded: 150_000,
    });
    expect(config.accounts.startingCreditCents).toBe(500);
  });

  it('reads dollar amounts exactly and refuses anything else', () => {
    const config = loadConfig({
      PRICE_HTTP_API_USD_PER_HOUR: '0.125',
      PRICE_WS_STREAMING_USD_PER_HOUR: '1',
      PRICE_WS_PRERECORDED_USD_PER_HOUR: '0.000001',
      STARTING_CREDIT_CENTS: '0',
    });
    expect(config.prices.microsPerHour).toEqual({
      http_api: 125_000,
      ws_streaming: 1_000_000,
      ws_prerecorded: 1,
    });
    expect(config.accounts.startingCreditCents).toBe(0);
    for (const value of ['-0.10', '0.1234567', '$0.10', '1e3', 'free']) {
      expect(() => loadConfig({ PRICE_HTTP_API_USD_PER_HOUR: value }), value).toThrow(ConfigError);
    }
    expect(() => loadConfig({ STARTING_CREDIT_CENTS: '-1' })).toThrow(/STARTING_CREDIT_CENTS/);
  });
});

describe('GET /limiter/usages', () => {
  let runtime: TestRuntime;
  beforeAll(async () => {
    runtime = await startTestRuntime({ env: { PRICE_HTTP_API_USD_PER_HOUR: '0.36' } });
  });
  afterAll(() => runtime.close());

  it('lists every product with its configured price and the usage of the signed-in account only', async () => {
    const account = await createAccount(runtime);
    const other = await createAccount(runtime);
    const headers = bearer(await signIn(runtime, account.email));
    for (const [who, reference] of [
      [account, 'one'],
      [account, 'two'],
      [other, 'three'],
    ] as const) {
      await runtime.services.credits.charge({
        accountId: who.id,
        apiKeyId: null,
        product: 'http_api',
        seconds: 100.5,
        reference,
      });
    }
    const response = await runtime.app.inject({ method: 'GET', url: '/api/v1/limiter/usages', headers });
    expect(response.statusCode).toBe(200);
    // $0.36 per hour is 100 micro-dollars a second; 101 started seconds, twice.
    expect(usagesSchema.parse(response.json())).toEqual([
      { name: 'http_api', seconds: 202, calls: 2, currentUsage: 3, pricePerHourMicros: 360_000 },
      { name: 'ws_streaming', seconds: 0, calls: 0, currentUsage: 0, pricePerHourMicros: 300_000 },
      { name: 'ws_prerecorded', seconds: 0, calls: 0, currentUsage: 0, pricePerHourMicros: 150_000 },
    ]);
  });
});
