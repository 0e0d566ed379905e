import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { captchaChallengeSchema, captchaConfigSchema } from '@verbatim/contracts';
import { createChallenge, solveChallenge } from 'altcha-lib/v1';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretStore } from '../../platform/crypto/secret-store.js';
import { easyAltcha, solveAltcha } from '../../test-support/accounts.js';
import { startTestRuntime, type TestRuntime } from '../../test-support/test-runtime.js';
import { assertCaptcha } from './captcha-verifier.js';

/** Solves a challenge made here with the server's own key: for expiry cases the API cannot produce. */
async function solvedWithServerKey(runtime: TestRuntime, expires: Date): Promise<string> {
  const hmacKey = await new SecretStore(runtime.database.db).getOrCreate('altcha-hmac-key', () => {
    throw new Error('the key should exist already');
  });
  const challenge = await createChallenge({ hmacKey, maxnumber: 500, expires });
  const solution = await solveChallenge(challenge.challenge, challenge.salt, challenge.algorithm, 500)
    .promise;
  return Buffer.from(JSON.stringify({ ...challenge, number: solution?.number })).toString('base64');
}

describe('ALTCHA captcha (the default)', () => {
  let runtime: TestRuntime;
  beforeAll(async () => {
    runtime = await startTestRuntime({ adjust: easyAltcha });
  });
  afterAll(() => runtime.close());

  it('GET /api/v1/auth/captcha names ALTCHA', async () => {
    const response = await runtime.app.inject({ method: 'GET', url: '/api/v1/auth/captcha' });
    expect(response.statusCode).toBe(200);
    expect(captchaConfigSchema.parse(response.json())).toEqual({ provider: 'altcha' });
  });

  it('GET /api/v1/auth/captcha/challenge gives a fresh signed, expiring challenge', async () => {
    const first = await runtime.app.inject({ method: 'GET', url: '/api/v1/auth/captcha/challenge' });
    const second = await runtime.app.inject({ method: 'GET', url: '/api/v1/auth/captcha/challenge' });
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('no-store');
    const challenge = captchaChallengeSchema.parse(first.json());
    expect(challenge).toMatchObject({ algorithm: 'SHA-256', maxnumber: 2000 });
    expect(challenge.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(challenge.signature).not.toBe(captchaChallengeSchema.parse(second.json()).signature);
    const expires = Number(/expires=(\d+)/.exec(challenge.salt)?.[1]) * 1000;
    expect(expires - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(10 * 60_000);
    // The HMAC key is generated once and kept for every process.
    const keys = await runtime.database.db.selectFrom('server_secrets').select('name').execute();
    expect(keys.map((key) => key.name)).toContain('altcha-hmac-key');
  });

  it('accepts a solved challenge once, and records it until it expires', async () => {
    const solution = await solveAltcha(runtime.app);
    expect(await runtime.services.captcha.verify(solution, {})).toBe(true);
    expect(await runtime.services.captcha.verify(solution, {})).toBe(false);
    const rows = await runtime.database.db.selectFrom('captcha_solutions').selectAll().execute();
    const signature = (JSON.parse(Buffer.from(solution, 'base64').toString()) as { signature: string })
      .signature;
    expect(rows.find((row) => row.signature === signature)?.expires_at.getTime()).toBeGreaterThan(Date.now());
  });

  it('refuses a wrong number, a foreign signature, an expired challenge and garbage', async () => {
    const solution = JSON.parse(Buffer.from(await solveAltcha(runtime.app), 'base64').toString()) as Record<
      string,
      unknown
    >;
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');
    const foreign = await createChallenge({
      hmacKey: 'someone-else',
      maxnumber: 10,
      number: 3,
      expires: new Date(Date.now() + 60_000),
    });
    for (const bad of [
      encode({ ...solution, number: Number(solution.number) + 1 }),
      encode({ ...foreign, number: 3 }),
      await solvedWithServerKey(runtime, new Date(Date.now() - 1000)),
      encode({ ...solution, algorithm: 'SHA-1' }),
      'not base64 json',
      encode([1, 2, 3]),
    ]) {
      expect(await runtime.services.captcha.verify(bad, {}), bad).toBe(false);
    }
    // The untouched solution is still good: the failures above recorded nothing.
    expect(await runtime.services.captcha.verify(encode(solution), {})).toBe(true);
  });

  it('forgets recorded solutions whose challenge has expired', async () => {
    await runtime.database.db
      .insertInto('captcha_solutions')
      .values({ signature: 'stale', expires_at: new Date(Date.now() - 60_000) })
      .execute();
    expect(await runtime.services.captcha.verify(await solveAltcha(runtime.app), {})).toBe(true);
    const stale = await runtime.database.db
      .selectFrom('captcha_solutions')
      .select('signature')
      .where('signature', '=', 'stale')
      .execute();
    expect(stale).toEqual([]);
  });

  it('assertCaptcha throws CAPTCHA_INVALID with the spec message', async () => {
    await expect(assertCaptcha(runtime.services.captcha, 'nope', {})).rejects.toMatchObject({
      code: 'CAPTCHA_INVALID',
      statusCode: 400,
      message: 'Please verify that you are not a robot',
    });
    await expect(
      assertCaptcha(runtime.services.captcha, await solveAltcha(runtime.app), {}),
    ).resolves.toBeUndefined();
  });
});

interface SiteverifyCall {
  secret: string | null;
  response: string | null;
  remoteip: string | null;
}

/** Stands in for Google's siteverify endpoint: accepts the token "good-token" for secret "s3cret". */
async function startSiteverify(): Promise<{ url: string; calls: SiteverifyCall[]; server: Server }> {
  const calls: SiteverifyCall[] = [];
  const readBody = async (request: IncomingMessage) => {
    let body = '';
    for await (const chunk of request) body += String(chunk);
    return new URLSearchParams(body);
  };
  const server = createServer((request, response) => {
    void readBody(request).then((form) => {
      const call = {
        secret: form.get('secret'),
        response: form.get('response'),
        remoteip: form.get('remoteip'),
      };
      calls.push(call);
      if (call.response === 'broken') {
        response.writeHead(500).end('oops');
        return;
      }
      const success = request.method === 'POST' && call.secret === 's3cret' && call.response === 'good-token';
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify(success ? { success } : { success, 'error-codes': ['invalid-input-response'] }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/recaptcha/api/siteverify`, calls, server };
}

describe('reCAPTCHA', () => {
  let siteverify: Awaited<ReturnType<typeof startSiteverify>>;
  let runtime: TestRuntime;
  beforeAll(async () => {
    siteverify = await startSiteverify();
    runtime = await startTestRuntime({
      env: {
        CAPTCHA_PROVIDER: 'recaptcha',
        RECAPTCHA_SITE_KEY: 'site-key-123',
        RECAPTCHA_SECRET_KEY: 's3cret',
        RECAPTCHA_VERIFY_URL: siteverify.url,
      },
    });
  });
  afterAll(async () => {
    await runtime.close();
    await new Promise((resolve) => siteverify.server.close(resolve));
  });

  it('tells the console to show reCAPTCHA with the site key, and serves no ALTCHA challenge', async () => {
    const config = await runtime.app.inject({ method: 'GET', url: '/api/v1/auth/captcha' });
    expect(config.json()).toEqual({
      provider: 'recaptcha',
      siteKey: 'site-key-123',
      scriptUrl: 'https://www.google.com/recaptcha/api.js',
    });
    // The console page may load the widget's script and frames.
    const page = await runtime.app.inject({ method: 'GET', url: '/auth/register' });
    const policy = String(page.headers['content-security-policy']);
    expect(policy).toMatch(
      /script-src 'self' https:\/\/www\.google\.com [^;]*https:\/\/www\.gstatic\.com\/recaptcha\//,
    );
    expect(policy).toMatch(/frame-src 'self' https:\/\/www\.google\.com/);
    const challenge = await runtime.app.inject({ method: 'GET', url: '/api/v1/auth/captcha/challenge' });
    expect(challenge.statusCode).toBe(404);
    expect(challenge.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('asks siteverify with the secret, the token and the client address', async () => {
    const register = (reCaptchaKey: string) =>
      runtime.app.inject({
        method: 'POST',
        url: '/api/v1/auth/register',
        remoteAddress: '198.51.100.7',
        payload: { email: 'gus@example.com', password: 'Sup3r$ecret', passConf: 'Sup3r$ecret', reCaptchaKey },
      });
    const refused = await register('bad-token');
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'CAPTCHA_INVALID' });
    expect(siteverify.calls.at(-1)).toEqual({
      secret: 's3cret',
      response: 'bad-token',
      remoteip: '198.51.100.7',
    });

    const accepted = await register('good-token');
    expect(accepted.statusCode, accepted.body).toBe(201);
  });

  it('fails closed when siteverify errs or cannot be reached', async () => {
    expect(await runtime.services.captcha.verify('broken', {})).toBe(false);
    expect(runtime.logs.some((line) => line.msg === 'reCAPTCHA verification failed')).toBe(true);
    const unreachable = await startTestRuntime({
      env: {
        CAPTCHA_PROVIDER: 'recaptcha',
        RECAPTCHA_SITE_KEY: 'k',
        RECAPTCHA_SECRET_KEY: 's3cret',
        RECAPTCHA_VERIFY_URL: 'http://127.0.0.1:1/siteverify',
      },
    });
    try {
      expect(await unreachable.services.captcha.verify('good-token', {})).toBe(false);
    } finally {
      await unreachable.close();
    }
  });
});
