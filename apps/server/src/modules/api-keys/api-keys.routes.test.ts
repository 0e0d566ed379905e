import {
  apiErrorSchema,
  apiKeyListSchema,
  createdApiKeySchema,
  settingsSchema,
  usagesSchema,
} from '@verbatim/contracts';
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../errors/app-error.js';
import { bearer, createAccount, signIn } from '../../test-support/sign-in.js';
import { startTestRuntime, type TestRuntime } from '../../test-support/test-runtime.js';
import { generateApiKeySecret, hashApiKeySecret } from './api-key-secret.js';

/** Each test sends from its own client address, so the failed-attempt limit of one does not reach another. */
let nextAddress = 1;
const newAddress = () => `10.0.4.${nextAddress++}`;

describe('API keys', () => {
  let runtime: TestRuntime;
  beforeAll(async () => {
    runtime = await startTestRuntime({
      env: { API_KEY_FAILURES_PER_IP: '5', API_KEYS_PER_ACCOUNT: '4' },
    });
  });
  afterAll(() => runtime.close());

  async function signedIn() {
    const account = await createAccount(runtime);
    return { account, headers: bearer(await signIn(runtime, account.email)) };
  }

  function request(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    headers: Record<string, string> = {},
    options: { payload?: unknown; remoteAddress?: string } = {},
  ) {
    return runtime.app.inject({
      method,
      url: `/api/v1${url}`,
      headers,
      ...(options.payload === undefined ? {} : { payload: options.payload as object }),
      remoteAddress: options.remoteAddress ?? '127.0.0.1',
    });
  }

  async function generate(headers: Record<string, string>, payload: object = {}) {
    const response = await request('POST', '/auth/api-keys', headers, { payload });
    expect(response.statusCode, response.body).toBe(201);
    return createdApiKeySchema.parse(response.json());
  }

  async function listKeys(headers: Record<string, string>) {
    const response = await request('GET', '/auth/api-keys', headers);
    expect(response.statusCode).toBe(200);
    return apiKeyListSchema.parse(response.json());
  }

  it('generates a key whose secret is shown once, stored only as a hash, and listed by prefix', async () => {
    const { account, headers } = await signedIn();
    const response = await request('POST', '/auth/api-keys', headers);
    expect(response.statusCode).toBe(201);
    expect(response.headers['cache-control']).toBe('no-store');
    const created = createdApiKeySchema.parse(response.json());
    expect(created.apiKey).toMatch(/^vbt_live_[A-Za-z0-9_-]{49}$/);
    expect(created).toMatchObject({
      name: null,
      status: 'active',
      expiry: null,
      used: null,
      monthlyCapCents: null,
    });
    expect(created.apiKey.startsWith(created.prefix)).toBe(true);

    const listed = await listKeys(headers);
    const summary: Partial<typeof created> = { ...created };
    delete summary.apiKey;
    expect(listed).toEqual([summary]);
    expect(JSON.stringify(listed)).not.toContain(created.apiKey);

    const stored = await runtime.database.db
      .selectFrom('api_keys')
      .selectAll()
      .where('account_id', '=', account.id)
      .executeTakeFirstOrThrow();
    expect(stored.secret_hash).toBe(hashApiKeySecret(created.apiKey));
    expect(JSON.stringify(stored)).not.toContain(created.apiKey.slice(created.prefix.length));
    const audit = await runtime.database.db
      .selectFrom('audit_events')
      .select('kind')
      .where('account_id', '=', account.id)
      .execute();
    expect(audit.map((event) => event.kind)).toContain('api_key.created');
  });

  it('takes a name, an expiry date and a monthly cap, and checks them', async () => {
    const { headers } = await signedIn();
    const expiry = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const created = await generate(headers, {
      name: '  CI server ',
      expiresAt: expiry,
      monthlyCapCents: 2500,
    });
    expect(created).toMatchObject({
      name: 'CI server',
      expiry,
      monthlyCapCents: 2500,
      spentThisMonthCents: 0,
    });

    for (const [payload, path] of [
      [{ expiresAt: new Date(Date.now() - 1000).toISOString() }, 'expiresAt'],
      [{ expiresAt: new Date(Date.now() + 6 * 366 * 86_400_000).toISOString() }, 'expiresAt'],
      [{ expiresAt: 'next week' }, 'expiresAt'],
      [{ name: 'x'.repeat(65) }, 'name'],
      [{ monthlyCapCents: 0 }, 'monthlyCapCents'],
      [{ monthlyCapCents: 12.5 }, 'monthlyCapCents'],
    ] as const) {
      const response = await request('POST', '/auth/api-keys', headers, { payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      const error = apiErrorSchema.parse(response.json());
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(error.details?.[0]?.path).toEqual([path]);
    }
    expect(await listKeys(headers)).toHaveLength(1);
  });

  it('authenticates the public API with a key in either header, and records its last use', async () => {
    const { account, headers } = await signedIn();
    const { apiKey, id } = await generate(headers);

    const usages = await request('GET', '/limiter/usages', { authorization: `Bearer ${apiKey}` });
    expect(usages.statusCode).toBe(200);
    expect(usagesSchema.parse(usages.json()).map((usage) => usage.name)).toEqual([
      'http_api',
      'ws_streaming',
      'ws_prerecorded',
    ]);
    const settings = await request('GET', '/settings', { 'x-api-key': apiKey });
    expect(settings.statusCode).toBe(200);
    expect(settingsSchema.parse(settings.json()).thirdPartyApi.credits).toEqual({
      ceiling: 500,
      currentUsage: 0,
    });

    // The console's access token works on the same routes.
    expect((await request('GET', '/limiter/usages', headers)).statusCode).toBe(200);

    const used = (await listKeys(headers)).find((key) => key.id === id)?.used;
    expect(used).not.toBeNull();
    expect(Date.now() - Date.parse(used ?? '')).toBeLessThan(60_000);
    expect(account.id).toBeTruthy();
  });

  it('revokes a key at once: the next request with it is refused', async () => {
    const { account, headers } = await signedIn();
    const kept = await generate(headers, { name: 'kept' });
    const revoked = await generate(headers, { name: 'revoked' });
    const address = newAddress();
    const withKey = (key: string) =>
      request('GET', '/limiter/usages', { 'x-api-key': key }, { remoteAddress: address });
    expect((await withKey(revoked.apiKey)).statusCode).toBe(200);

    const response = await request('DELETE', `/auth/api-keys/${revoked.id}`, headers);
    expect(response.statusCode).toBe(204);

    const refused = await withKey(revoked.apiKey);
    expect(refused.statusCode).toBe(401);
    expect(refused.json<{ code: string }>().code).toBe('UNAUTHENTICATED');
    expect((await withKey(kept.apiKey)).statusCode).toBe(200);
    expect((await listKeys(headers)).map((key) => key.name)).toEqual(['kept']);
    // Revoking again changes nothing and says so the same way.
    expect((await request('DELETE', `/auth/api-keys/${revoked.id}`, headers)).statusCode).toBe(204);
    const audit = await runtime.database.db
      .selectFrom('audit_events')
      .select('kind')
      .where('account_id', '=', account.id)
      .execute();
    expect(audit.filter((event) => event.kind === 'api_key.revoked')).toHaveLength(2);
  });

  it('refuses expired keys, keys of inactive accounts and made-up keys', async () => {
    const { account, headers } = await signedIn();
    const expiring = await generate(headers, { expiresAt: new Date(Date.now() + 60_000).toISOString() });
    const address = newAddress();
    const withKey = (key: string) =>
      request('GET', '/settings', { authorization: `Bearer ${key}` }, { remoteAddress: address });
    expect((await withKey(expiring.apiKey)).statusCode).toBe(200);

    await runtime.database.db
      .updateTable('api_keys')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', expiring.id)
      .execute();
    expect((await withKey(expiring.apiKey)).statusCode).toBe(401);
    // Expired keys stay listed, marked, until revoked.
    expect((await listKeys(headers))[0]).toMatchObject({ id: expiring.id, status: 'expired' });

    const active = await generate(headers);
    expect((await withKey(active.apiKey)).statusCode).toBe(200);
    await runtime.database.db
      .updateTable('accounts')
      .set({ status: 'inactive' })
      .where('id', '=', account.id)
      .execute();
    expect((await withKey(active.apiKey)).statusCode).toBe(401);

    const madeUp = `vbt_live_${'A'.repeat(49)}`;
    expect((await withKey(madeUp)).statusCode).toBe(401);
  });

  it('throttles failing key attempts per client address, never a valid key from that address', async () => {
    const { headers } = await signedIn();
    const { apiKey } = await generate(headers);
    const office = newAddress();
    const fromOffice = (key: string) =>
      request('GET', '/settings', { 'x-api-key': key }, { remoteAddress: office });
    // A misconfigured client behind the office's NAT: a well-formed key that does not exist.
    const staleKey = generateApiKeySecret().secret;
    for (let attempt = 0; attempt < 5; attempt++) expect((await fromOffice(staleKey)).statusCode).toBe(401);
    const limited = await fromOffice(staleKey);
    expect(limited.statusCode).toBe(429);
    expect(apiErrorSchema.parse(limited.json()).code).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);

    // A colleague's valid key from the same address keeps working, request after request, while the
    // misconfigured client stays throttled in between.
    for (let round = 0; round < 3; round++) {
      expect((await fromOffice(apiKey)).statusCode).toBe(200);
      expect((await fromOffice(staleKey)).statusCode).toBe(429);
    }
    // Another bad key is throttled too; console tokens and other addresses are not affected.
    expect((await fromOffice(generateApiKeySecret().secret)).statusCode).toBe(429);
    expect((await fromOffice(`vbt_live_${'B'.repeat(49)}`)).statusCode).toBe(429);
    expect((await request('GET', '/settings', headers, { remoteAddress: office })).statusCode).toBe(200);
    const elsewhere = await request(
      'GET',
      '/settings',
      { 'x-api-key': staleKey },
      { remoteAddress: newAddress() },
    );
    expect(elsewhere.statusCode).toBe(401);
  });

  it('answers a repeated hopeless key from a throttled address from memory, without a key lookup', async () => {
    const address = newAddress();
    const staleKey = generateApiKeySecret().secret;
    const send = () => request('GET', '/settings', { 'x-api-key': staleKey }, { remoteAddress: address });
    const lookups = vi.spyOn(runtime.services.apiKeys, 'check');
    try {
      for (let attempt = 0; attempt < 5; attempt++) expect((await send()).statusCode).toBe(401);
      expect(lookups).toHaveBeenCalledTimes(5);
      for (let attempt = 0; attempt < 10; attempt++) expect((await send()).statusCode).toBe(429);
      expect(lookups).toHaveBeenCalledTimes(5);
    } finally {
      lookups.mockRestore();
    }
  });

  it('accepts the key of an account activated while its address is throttled', async () => {
    const { account, headers } = await signedIn();
    const { apiKey } = await generate(headers);
    const address = newAddress();
    const send = (key: string) =>
      request('GET', '/settings', { 'x-api-key': key }, { remoteAddress: address });
    const setStatus = (status: 'active' | 'inactive') =>
      runtime.database.db.updateTable('accounts').set({ status }).where('id', '=', account.id).execute();
    const staleKey = generateApiKeySecret().secret;
    for (let attempt = 0; attempt < 5; attempt++) expect((await send(staleKey)).statusCode).toBe(401);
    await setStatus('inactive');
    // Refused while the account is inactive, but not remembered as hopeless: it may become valid.
    expect((await send(apiKey)).statusCode).toBe(429);
    expect((await send(apiKey)).statusCode).toBe(429);
    await setStatus('active');
    expect((await send(apiKey)).statusCode).toBe(200);
  });

  it('holds a limited number of keys per account', async () => {
    const { headers } = await signedIn();
    const keys = [];
    for (let i = 0; i < 4; i++) keys.push(await generate(headers));
    const refused = await request('POST', '/auth/api-keys', headers, { payload: {} });
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ code: string }>().code).toBe('API_KEY_LIMIT_REACHED');
    await request('DELETE', `/auth/api-keys/${keys[0]?.id ?? ''}`, headers);
    await generate(headers);
  });

  describe('authorisation', () => {
    it("user A can neither list nor revoke user B's keys, nor spend B's credit", async () => {
      const a = await signedIn();
      const b = await signedIn();
      const aKey = await generate(a.headers, { name: 'A' });
      const bKey = await generate(b.headers, { name: 'B' });

      expect((await listKeys(a.headers)).map((key) => key.id)).toEqual([aKey.id]);
      expect((await listKeys(b.headers)).map((key) => key.id)).toEqual([bKey.id]);

      const revokeOthers = await request('DELETE', `/auth/api-keys/${bKey.id}`, a.headers);
      expect(revokeOthers.statusCode).toBe(404);
      expect(revokeOthers.json<{ code: string }>().code).toBe('NOT_FOUND');
      expect(
        (await request('GET', '/settings', { 'x-api-key': bKey.apiKey }, { remoteAddress: newAddress() }))
          .statusCode,
      ).toBe(200);

      // Each key acts for its own account only.
      const asA = settingsSchema.parse(
        (
          await request('GET', '/settings', { 'x-api-key': aKey.apiKey }, { remoteAddress: newAddress() })
        ).json(),
      );
      expect(asA.thirdPartyApi.credits).toEqual({ ceiling: 500, currentUsage: 0 });
      await runtime.services.credits.charge({
        accountId: a.account.id,
        apiKeyId: aKey.id,
        product: 'http_api',
        seconds: 3600,
        reference: 'a-usage',
      });
      const aUsages = usagesSchema.parse(
        (
          await request(
            'GET',
            '/limiter/usages',
            { 'x-api-key': aKey.apiKey },
            { remoteAddress: newAddress() },
          )
        ).json(),
      );
      const bUsages = usagesSchema.parse(
        (
          await request(
            'GET',
            '/limiter/usages',
            { 'x-api-key': bKey.apiKey },
            { remoteAddress: newAddress() },
          )
        ).json(),
      );
      expect(aUsages[0]).toMatchObject({ name: 'http_api', seconds: 3600, currentUsage: 10 });
      expect(bUsages[0]).toMatchObject({ name: 'http_api', seconds: 0, currentUsage: 0 });
      // A's key cannot be charged to B's account, nor B's to A's.
      await expect(
        runtime.services.credits.charge({
          accountId: b.account.id,
          apiKeyId: aKey.id,
          product: 'http_api',
          seconds: 1,
          reference: 'steal',
        }),
      ).rejects.toMatchObject({ code: 'FORBIDDEN' });
      expect(await runtime.services.credits.credits(b.account.id)).toMatchObject({
        currentUsage: 0,
        calls: 0,
      });
    });

    it('refuses every key route without a console session, and API keys on them', async () => {
      const { headers } = await signedIn();
      const { apiKey, id } = await generate(headers);
      for (const [method, url] of [
        ['GET', '/auth/api-keys'],
        ['POST', '/auth/api-keys'],
        ['DELETE', `/auth/api-keys/${id}`],
        ['PUT', '/settings'],
        ['GET', '/profile'],
        ['PUT', '/profile'],
        ['POST', '/profile/password'],
        ['GET', '/limiter/vat-rate/FR'],
        ['POST', '/limiter/payment-sessions'],
        ['GET', '/limiter/payments'],
      ] as const) {
        const anonymous = await request(method, url, {}, { payload: {} });
        expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
        // An API key must not mint or revoke keys, change settings or the profile, nor buy credit.
        const withKey = await request(method, url, { authorization: `Bearer ${apiKey}` }, { payload: {} });
        expect(withKey.statusCode, `${method} ${url} with a key`).toBe(403);
        expect(withKey.json<{ code: string }>().code).toBe('FORBIDDEN');
      }
      for (const url of ['/limiter/usages', '/settings']) {
        expect((await request('GET', url)).statusCode).toBe(401);
        expect((await request('GET', url, { authorization: 'Bearer not-a-token' })).statusCode).toBe(401);
      }
      expect(await listKeys(headers)).toHaveLength(1);
    });
  });

  it('authenticates the streaming socket with the accessToken query parameter too', async () => {
    const { account, headers } = await signedIn();
    const { apiKey, id } = await generate(headers);
    const upgrade = (query: Record<string, string>, requestHeaders: Record<string, string> = {}) =>
      ({ headers: requestHeaders, query, ip: newAddress() }) as unknown as FastifyRequest;
    const auth = runtime.services.apiAuthentication;

    const byKey = await auth.authenticateSocket(upgrade({ accessToken: apiKey, languageCode: 'en' }));
    expect(byKey.account.id).toBe(account.id);
    expect(byKey.apiKey?.id).toBe(id);
    const token = headers.authorization.replace('Bearer ', '');
    const byToken = await auth.authenticateSocket(upgrade({ accessToken: token }));
    expect(byToken).toMatchObject({ account: { id: account.id }, apiKey: null });
    const byHeader = await auth.authenticateSocket(upgrade({}, { 'x-api-key': apiKey }));
    expect(byHeader.apiKey?.id).toBe(id);
    await expect(auth.authenticateSocket(upgrade({}))).rejects.toBeInstanceOf(AppError);
    await expect(auth.authenticateSocket(upgrade({ accessToken: `${apiKey}x` }))).rejects.toMatchObject({
      code: 'UNAUTHENTICATED',
    });
  });
});
