import { apiErrorSchema, profileSchema, tokenResponseSchema } from '@verbatim/contracts';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { easyAltcha, solveAltcha } from '../../test-support/accounts.js';
import { createAccount, defaultPassword, signIn, tokenRequest } from '../../test-support/sign-in.js';
import { startTestRuntime, type TestRuntime } from '../../test-support/test-runtime.js';

describe('signing in with a password', () => {
  let runtime: TestRuntime;
  beforeAll(async () => {
    runtime = await startTestRuntime({ env: { SIGNIN_FAILURES_BEFORE_CAPTCHA: '3' }, adjust: easyAltcha });
  });
  afterAll(() => runtime.close());

  const profileWith = (accessToken: string) =>
    runtime.app.inject({
      method: 'GET',
      url: '/api/v1/profile',
      headers: { authorization: `Bearer ${accessToken}` },
    });

  it('issues an access token for the API, a refresh token and an ID token', async () => {
    const account = await createAccount(runtime, { fullName: 'Ada Lovelace' });
    const response = await tokenRequest(runtime, {
      grant_type: 'password',
      username: account.email,
      password: defaultPassword,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const tokens = tokenResponseSchema.parse(response.json());
    expect(tokens.refresh_token).toBeTruthy();
    expect(tokens.expires_in).toBe(900);

    const access = decodeJwt(tokens.access_token);
    expect(access).toMatchObject({
      sub: account.id,
      aud: 'http://localhost:8080/api',
      iss: 'http://localhost:8080/oidc',
      scope: 'api',
    });
    const id = decodeJwt(tokens.id_token ?? '');
    expect(id).toMatchObject({
      sub: account.id,
      email: account.email,
      name: 'Ada Lovelace',
      aud: 'verbatim-console',
    });

    const profile = await profileWith(tokens.access_token);
    expect(profile.statusCode).toBe(200);
    expect(profileSchema.parse(profile.json())).toMatchObject({
      id: account.id,
      email: account.email,
      fullName: 'Ada Lovelace',
    });
    const audit = await runtime.database.db
      .selectFrom('audit_events')
      .select('kind')
      .where('account_id', '=', account.id)
      .execute();
    expect(audit.map((event) => event.kind)).toContain('signin.succeeded');
  });

  it('answers a wrong password or an unknown address with 401 and the same message', async () => {
    const account = await createAccount(runtime);
    for (const [username, password] of [
      [account.email, 'Wrong-Password-1'],
      ['nobody-here@example.com', defaultPassword],
    ] as const) {
      const response = await tokenRequest(runtime, { grant_type: 'password', username, password });
      expect(response.statusCode).toBe(401);
      expect(apiErrorSchema.parse(response.json())).toEqual({
        code: 'INVALID_CREDENTIALS',
        message: 'Wrong username or password.',
      });
    }
  });

  it('accepts the address in any case and with surrounding spaces', async () => {
    const account = await createAccount(runtime);
    await expect(signIn(runtime, `  ${account.email.toUpperCase()} `)).resolves.toHaveProperty(
      'access_token',
    );
  });

  it('requires the captcha after repeated failures, then accepts a solved one', async () => {
    const account = await createAccount(runtime);
    for (let attempt = 0; attempt < 3; attempt++) {
      const failed = await tokenRequest(runtime, {
        grant_type: 'password',
        username: account.email,
        password: 'Nope-nope-1',
      });
      expect(failed.statusCode).toBe(401);
    }
    const blocked = await tokenRequest(runtime, {
      grant_type: 'password',
      username: account.email,
      password: defaultPassword,
    });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json<{ code: string }>().code).toBe('CAPTCHA_REQUIRED');

    const forged = await tokenRequest(runtime, {
      grant_type: 'password',
      username: account.email,
      password: defaultPassword,
      reCaptchaKey: Buffer.from('{"not":"solved"}').toString('base64'),
    });
    expect(forged.statusCode).toBe(429);

    const captcha = await solveAltcha(runtime.app);
    const passed = await tokenRequest(runtime, {
      grant_type: 'password',
      username: account.email,
      password: defaultPassword,
      reCaptchaKey: captcha,
    });
    expect(passed.statusCode, passed.body).toBe(200);
    // Success clears the count: the next sign-in needs no captcha.
    await expect(signIn(runtime, account.email)).resolves.toHaveProperty('access_token');
  });

  it('tells accounts that may not sign in why, with 403', async () => {
    for (const [status, code] of [
      ['pending_verification', 'EMAIL_NOT_VERIFIED'],
      ['pending_approval', 'ACCOUNT_PENDING_APPROVAL'],
      ['inactive', 'ACCOUNT_INACTIVE'],
    ] as const) {
      const account = await createAccount(runtime, { status });
      const response = await tokenRequest(runtime, {
        grant_type: 'password',
        username: account.email,
        password: defaultPassword,
      });
      expect(response.statusCode, status).toBe(403);
      expect(response.json<{ code: string }>().code).toBe(code);
    }
  });

  it('refreshes the access token, rotating the refresh token', async () => {
    const account = await createAccount(runtime);
    const first = await signIn(runtime, account.email);
    const refreshed = await tokenRequest(runtime, {
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token ?? '',
    });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    const second = tokenResponseSchema.parse(refreshed.json());
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(decodeJwt(second.access_token)).toMatchObject({
      sub: account.id,
      aud: 'http://localhost:8080/api',
    });
    expect((await profileWith(second.access_token)).statusCode).toBe(200);
  });

  it('refuses protected routes without a valid access token of an active account', async () => {
    const account = await createAccount(runtime);
    const { access_token: accessToken, id_token: idToken } = await signIn(runtime, account.email);
    expect(
      (await runtime.app.inject({ method: 'GET', url: '/api/v1/profile' })).json<{ code: string }>().code,
    ).toBe('UNAUTHENTICATED');
    for (const token of ['garbage', `${accessToken}x`, idToken ?? '']) {
      const response = await profileWith(token);
      expect(response.statusCode).toBe(401);
      expect(response.json<{ code: string }>().code).toBe('UNAUTHENTICATED');
    }
    await runtime.database.db
      .updateTable('accounts')
      .set({ status: 'inactive', updated_at: new Date() })
      .where('id', '=', account.id)
      .execute();
    expect((await profileWith(accessToken)).statusCode).toBe(401);
  });

  it('publishes its discovery document under /oidc', async () => {
    const response = await runtime.app.inject({
      method: 'GET',
      url: '/oidc/.well-known/openid-configuration',
      // Whatever host a client claims, the provider advertises the configured public URL.
      headers: { host: 'evil.example.com', 'x-forwarded-host': 'evil.example.com' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      issuer: 'http://localhost:8080/oidc',
      token_endpoint: 'http://localhost:8080/oidc/token',
      jwks_uri: 'http://localhost:8080/oidc/jwks',
    });
  });
});

describe('token requests from a browser', () => {
  let runtime: TestRuntime;
  beforeAll(async () => {
    runtime = await startTestRuntime();
  });
  afterAll(() => runtime.close());

  const fromOrigin = async (origin: string) => {
    const account = await createAccount(runtime);
    return runtime.app.inject({
      method: 'POST',
      url: '/api/v1/auth/profile/verify',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
      payload: new URLSearchParams({
        client_id: 'verbatim-console',
        grant_type: 'password',
        username: account.email,
        password: defaultPassword,
      }).toString(),
    });
  };

  it("accepts the console's own origin", async () => {
    const response = await fromOrigin('http://localhost:8080');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBe('http://localhost:8080');
  });

  it('refuses any other origin', async () => {
    const response = await fromOrigin('https://evil.example.com');
    expect(response.statusCode).toBe(400);
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('sign-in requests per client address', () => {
  let runtime: TestRuntime;
  beforeAll(async () => {
    runtime = await startTestRuntime({ env: { SIGNIN_REQUESTS_PER_MINUTE_PER_IP: '3' } });
  });
  afterAll(() => runtime.close());

  const tokenRequestFrom = (url: string, remoteAddress: string, fields: Record<string, string>) =>
    runtime.app.inject({
      method: 'POST',
      url,
      remoteAddress,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ client_id: 'verbatim-console', ...fields }).toString(),
    });
  // Each client address tries its own e-mail address: failures for one e-mail address bring the
  // captcha, also answered 429.
  const guessedEmail = (address: string) => `nobody-at-${address}@example.com`;
  const passwordGrant = (address: string) => ({
    grant_type: 'password',
    username: guessedEmail(address),
    password: defaultPassword,
  });
  const signIns = {
    'the console token address': (address: string) =>
      tokenRequestFrom('/api/v1/auth/profile/verify', address, passwordGrant(address)),
    "the provider's token endpoint": (address: string) =>
      tokenRequestFrom('/oidc/token', address, passwordGrant(address)),
    "the authorization-code flow's sign-in step": (address: string) =>
      runtime.app.inject({
        method: 'POST',
        url: '/api/v1/auth/interactions/no-such-interaction/login',
        remoteAddress: address,
        payload: { email: guessedEmail(address), password: defaultPassword },
      }),
  };

  it.each(Object.entries(signIns))(
    'answers 429 RATE_LIMITED with Retry-After beyond SIGNIN_REQUESTS_PER_MINUTE_PER_IP on %s, to that address only',
    async (_name, send) => {
      const index = Object.values(signIns).indexOf(send);
      const address = `192.0.2.${10 + index}`;
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 3; attempt++) statuses.push((await send(address)).statusCode);
      expect(statuses).not.toContain(429);
      const limited = await send(address);
      expect(limited.statusCode).toBe(429);
      expect(apiErrorSchema.parse(limited.json()).code).toBe('RATE_LIMITED');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect((await send(`198.51.100.${index}`)).statusCode).not.toBe(429);
    },
  );

  it('is one budget for every way of checking a password: a guesser cannot go through each in turn', async () => {
    const address = '192.0.2.20';
    const viaConsole = signIns['the console token address'];
    const viaProvider = signIns["the provider's token endpoint"];
    const viaInteraction = signIns["the authorization-code flow's sign-in step"];
    for (const send of [viaConsole, viaProvider, viaInteraction])
      expect((await send(address)).statusCode).not.toBe(429);
    for (const send of [viaConsole, viaProvider, viaInteraction])
      expect((await send(address)).statusCode).toBe(429);
  });

  it('is not spent by token requests that check no password (renewals, an application exchanging codes)', async () => {
    const address = '192.0.2.21';
    for (let attempt = 0; attempt < 3; attempt++) await signIns['the console token address'](address);
    expect((await signIns["the provider's token endpoint"](address)).statusCode).toBe(429);
    for (const url of ['/api/v1/auth/profile/verify', '/oidc/token']) {
      for (let attempt = 0; attempt < 4; attempt++) {
        const renewal = await tokenRequestFrom(url, address, {
          grant_type: 'refresh_token',
          refresh_token: 'not-a-token',
        });
        expect(renewal.statusCode, renewal.body).toBe(400);
      }
    }
  });
});
