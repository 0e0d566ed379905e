import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startViesStandIn, type ViesStandIn } from '../../test-support/vies-stand-in.js';
import {
  CachingVatNumberRegistry,
  type VatNumberRegistry,
  type VatRegistryAnswer,
} from './vat-number-registry.js';
import { ViesRestRegistry } from './vies-registry.js';

describe('ViesRestRegistry against a VIES stand-in', () => {
  let vies: ViesStandIn;
  let registry: ViesRestRegistry;
  beforeAll(async () => {
    vies = await startViesStandIn(['DE136308783', 'EL094501040']);
    registry = new ViesRestRegistry({ url: vies.url, timeoutMs: 500 });
  });
  afterAll(() => vies.close());
  beforeEach(() => {
    vies.mode = 'up';
    vies.requests.length = 0;
  });

  it('asks with the prefix and the national part, and reads the answer', async () => {
    await expect(registry.check('DE', '136308783')).resolves.toEqual({ status: 'valid' });
    await expect(registry.check('DE', '811363057')).resolves.toEqual({ status: 'invalid' });
    await expect(registry.check('EL', '094501040')).resolves.toEqual({ status: 'valid' });
    expect(vies.requests).toEqual([
      { countryCode: 'DE', vatNumber: '136308783' },
      { countryCode: 'DE', vatNumber: '811363057' },
      { countryCode: 'EL', vatNumber: '094501040' },
    ]);
  });

  it.each([
    ['ms_unavailable', /HTTP 200, MS_UNAVAILABLE/],
    ['user_error', /MS_MAX_CONCURRENT_REQ/],
    ['server_error', /HTTP 500, SERVICE_UNAVAILABLE/],
    ['gateway_error', /HTTP 503 without a JSON body/],
    ['hang', /no answer within 500 ms/],
  ] as const)('is unavailable when VIES answers %s', async (mode, reason) => {
    vies.mode = mode;
    const answer = await registry.check('DE', '136308783');
    expect(answer).toMatchObject({ status: 'unavailable' });
    expect(answer.status === 'unavailable' && answer.reason).toMatch(reason);
  });

  it('takes an error about the number itself as invalid', async () => {
    vies.mode = 'invalid_input';
    await expect(registry.check('DE', '136308783')).resolves.toEqual({ status: 'invalid' });
  });

  it('is unavailable when nothing listens', async () => {
    // Port 2: nothing listens there and no other test's server can be given it (fetch refuses 1).
    const closed = new ViesRestRegistry({ url: 'http://127.0.0.1:2/check-vat-number', timeoutMs: 500 });
    const answer = await closed.check('DE', '136308783');
    expect(answer).toMatchObject({ status: 'unavailable' });
    expect(answer.status === 'unavailable' && answer.reason).toMatch(/^request failed/);
  });
});

describe('CachingVatNumberRegistry', () => {
  /** A register answering from a list, one answer per call (the last one repeats), counting its calls. */
  class CountingRegistry implements VatNumberRegistry {
    calls = 0;
    constructor(private readonly answers: VatRegistryAnswer[]) {}

    check(): Promise<VatRegistryAnswer> {
      const answer = this.answers[Math.min(this.calls, this.answers.length - 1)];
      this.calls += 1;
      return Promise.resolve(answer ?? { status: 'unavailable', reason: 'no answer configured' });
    }
  }
  const counting = (answers: VatRegistryAnswer[]) => new CountingRegistry(answers);

  it('remembers definite answers until they expire', async () => {
    let now = 0;
    const inner = counting([{ status: 'valid' }, { status: 'invalid' }]);
    const cached = new CachingVatNumberRegistry(inner, { ttlMs: 1000, maxEntries: 10, now: () => now });
    await expect(cached.check('DE', '136308783')).resolves.toEqual({ status: 'valid' });
    now = 999;
    await expect(cached.check('DE', '136308783')).resolves.toEqual({ status: 'valid' });
    expect(inner.calls).toBe(1);
    now = 1000;
    await expect(cached.check('DE', '136308783')).resolves.toEqual({ status: 'invalid' });
    expect(inner.calls).toBe(2);
  });

  it('never remembers that VIES was unavailable', async () => {
    const inner = counting([{ status: 'unavailable', reason: 'down' }, { status: 'valid' }]);
    const cached = new CachingVatNumberRegistry(inner, { ttlMs: 60_000, maxEntries: 10 });
    await expect(cached.check('DE', '136308783')).resolves.toMatchObject({ status: 'unavailable' });
    await expect(cached.check('DE', '136308783')).resolves.toEqual({ status: 'valid' });
    expect(inner.calls).toBe(2);
  });

  it('forgets the oldest number beyond its size', async () => {
    const inner = counting([{ status: 'valid' }]);
    const cached = new CachingVatNumberRegistry(inner, { ttlMs: 60_000, maxEntries: 2 });
    await cached.check('DE', '1');
    await cached.check('DE', '2');
    await cached.check('DE', '3');
    expect(inner.calls).toBe(3);
    await cached.check('DE', '3');
    await cached.check('DE', '2');
    expect(inner.calls).toBe(3);
    await cached.check('DE', '1');
    expect(inner.calls).toBe(4);
  });
});
