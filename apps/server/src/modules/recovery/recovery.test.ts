import { apiErrorSchema, recoveryPasswordResponseSchema, validationMessages } from '@verbatim/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppError } from '../../errors/app-error.js';
import { Argon2PasswordHasher } from '../../platform/crypto/password-hasher.js';
import { hashSecret } from '../../platform/crypto/tokens.js';
import {
  linkSecret,
  mailsTo,
  solveAltcha,
  startRuntimeWithMailbox,
  strongPassword,
} from '../../test-support/accounts.js';
import type { SmtpSink } from '../../test-support/smtp-sink.js';
import type { TestRuntime } from '../../test-support/test-runtime.js';

const newPassword = 'N3w-Passw0rd!';
const hasher = new Argon2PasswordHasher();
let nextAddress = 1;
const freshIp = () => `10.2.0.${nextAddress++}`;

describe('password recovery', () => {
  let sink: SmtpSink;
  let runtime: TestRuntime;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ runtime, sink, close } = await startRuntimeWithMailbox({
      PUBLIC_URL: 'https://stt.example.test',
      PRODUCT_NAME: 'Acme STT',
      PASSWORD_RECOVERY_TTL_MINUTES: '30',
    }));
  });
  afterAll(() => close());

  const post = (url: string, payload: Record<string, unknown>, ip = freshIp()) =>
    runtime.app.inject({ method: 'POST', url: `/api/v1${url}`, payload, remoteAddress: ip });

  const account = (email: string) =>
    runtime.database.db
      .selectFrom('accounts')
      .selectAll()
      .where('email', '=', email)
      .executeTakeFirstOrThrow();

  /** Registers through the API; `verified` also follows the verification link. */
  async function createAccount(email: string, verified: boolean) {
    const response = await post('/auth/register', {
      email,
      password: strongPassword,
      passConf: strongPassword,
      reCaptchaKey: await solveAltcha(runtime.app),
    });
    expect(response.statusCode, response.body).toBe(201);
    const code = await linkSecret(sink, email, '/auth/verify');
    if (verified) await runtime.services.registration.verifyEmail(code, {});
    return code;
  }

  async function requestRecovery(email: string) {
    return post('/auth/recovery', { email, reCaptchaKey: await solveAltcha(runtime.app) });
  }

  const setPassword = (token: string, password = newPassword) =>
    post('/auth/recovery/password', { token, password });

  it('e-mails a single-use link that sets a new argon2id password', async () => {
    await createAccount('ada@example.com', true);
    const response = await requestRecovery('ADA@example.com');
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ accepted: true });

    const token = await linkSecret(sink, 'ada@example.com', 'https://stt.example.test/auth/recovery', 2);
    const mail = mailsTo(sink, 'ada@example.com')[1] ?? '';
    expect(mail).toContain('Subject: Reset your Acme STT password');
    expect(mail).toContain('valid for 30 minutes');
    expect(mail).toContain('Content-Type: text/html');
    const before = await account('ada@example.com');
    const stored = await runtime.database.db
      .selectFrom('account_tokens')
      .selectAll()
      .where('account_id', '=', before.id)
      .where('purpose', '=', 'password_recovery')
      .executeTakeFirstOrThrow();
    expect(stored.token_hash).toBe(hashSecret(token));
    const minutesLeft = (stored.expires_at.getTime() - Date.now()) / 60_000;
    expect(minutesLeft).toBeGreaterThan(29);
    expect(minutesLeft).toBeLessThanOrEqual(30);

    const changed = await setPassword(token);
    expect(changed.statusCode, changed.body).toBe(200);
    expect(recoveryPasswordResponseSchema.parse(changed.json())).toEqual({
      user: { email: 'ada@example.com' },
    });
    const after = await account('ada@example.com');
    expect(after.password_hash).toMatch(/^\$argon2id\$/);
    expect(await hasher.verify(after.password_hash ?? '', newPassword)).toBe(true);
    expect(await hasher.verify(after.password_hash ?? '', strongPassword)).toBe(false);

    const events = await runtime.database.db
      .selectFrom('audit_events')
      .select('kind')
      .where('account_id', '=', before.id)
      .orderBy('created_at')
      .execute();
    expect(events.map((event) => event.kind)).toEqual([
      'account.registered',
      'account.email_verified',
      'password.recovery_requested',
      'password.recovered',
    ]);

    const again = await setPassword(token, 'An0ther-Passw0rd!');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ code: 'BAD_TOKEN' });
    expect(await hasher.verify((await account('ada@example.com')).password_hash ?? '', newPassword)).toBe(
      true,
    );
  });

  it('answers an unknown address exactly as a known one, and sends nothing', async () => {
    await createAccount('bo@example.com', true);
    const unknown = await requestRecovery('nobody@example.com');
    const known = await requestRecovery('bo@example.com');
    expect(unknown.statusCode).toBe(202);
    expect(unknown.body).toBe(known.body);
    expect(Object.keys(unknown.headers).sort()).toEqual(Object.keys(known.headers).sort());
    // Both lookups run in queued jobs, in order; once the known one has mailed, the other is done.
    await linkSecret(sink, 'bo@example.com', '/auth/recovery', 2);
    expect(mailsTo(sink, 'nobody@example.com')).toEqual([]);
    const unknownEvents = await runtime.database.db
      .selectFrom('audit_events')
      .select('id')
      .where('kind', '=', 'password.recovery_requested')
      .where('account_id', 'is', null)
      .execute();
    expect(unknownEvents).toEqual([]);
  });

  it('a new request makes the earlier links stop working', async () => {
    await createAccount('cy@example.com', true);
    await requestRecovery('cy@example.com');
    const first = await linkSecret(sink, 'cy@example.com', '/auth/recovery', 2);
    await requestRecovery('cy@example.com');
    const second = await linkSecret(sink, 'cy@example.com', '/auth/recovery', 3);
    expect(second).not.toBe(first);
    expect((await setPassword(first)).json()).toMatchObject({ code: 'BAD_TOKEN' });
    expect((await setPassword(second)).statusCode).toBe(200);
  });

  it('refuses an expired link and leaves the password alone', async () => {
    await createAccount('dee@example.com', true);
    await requestRecovery('dee@example.com');
    const token = await linkSecret(sink, 'dee@example.com', '/auth/recovery', 2);
    await runtime.database.db
      .updateTable('account_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('token_hash', '=', hashSecret(token))
      .execute();
    const response = await setPassword(token);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'TOKEN_EXPIRED' });
    expect(await hasher.verify((await account('dee@example.com')).password_hash ?? '', strongPassword)).toBe(
      true,
    );
  });

  it('refuses an unknown link', async () => {
    const response = await setPassword('x'.repeat(43));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'BAD_TOKEN' });
  });

  it('lets exactly one of two concurrent uses of a link succeed', async () => {
    await createAccount('eve@example.com', true);
    await requestRecovery('eve@example.com');
    const token = await linkSecret(sink, 'eve@example.com', '/auth/recovery', 2);
    const results = await Promise.allSettled([
      runtime.services.recovery.recoverPassword({ token, password: newPassword }, {}),
      runtime.services.recovery.recoverPassword({ token, password: 'An0ther-Passw0rd!' }, {}),
    ]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    const failure = results.find((result) => result.status === 'rejected');
    expect((failure?.reason as AppError).code).toBe('BAD_TOKEN');
  });

  it('verifies the e-mail of an account still waiting for verification', async () => {
    const verificationCode = await createAccount('fay@example.com', false);
    await requestRecovery('fay@example.com');
    const token = await linkSecret(sink, 'fay@example.com', '/auth/recovery', 2);
    expect((await setPassword(token)).statusCode).toBe(200);
    const recovered = await account('fay@example.com');
    expect(recovered.status).toBe('active');
    expect(recovered.email_verified_at).toBeInstanceOf(Date);
    // The verification link has nothing left to do.
    await expect(runtime.services.registration.verifyEmail(verificationCode, {})).rejects.toMatchObject({
      code: 'BAD_TOKEN',
    });
  });

  it.each([
    ['a missing e-mail', '/auth/recovery', { reCaptchaKey: 'x' }, 'email', validationMessages.required],
    [
      'a malformed e-mail',
      '/auth/recovery',
      { email: 'nope', reCaptchaKey: 'x' },
      'email',
      validationMessages.emailInvalid,
    ],
    [
      'a too long e-mail',
      '/auth/recovery',
      { email: `${'b'.repeat(30)}@x.io`, reCaptchaKey: 'x' },
      'email',
      validationMessages.emailTooLong,
    ],
    [
      'a missing captcha',
      '/auth/recovery',
      { email: 'ada@example.com' },
      'reCaptchaKey',
      validationMessages.captchaRequired,
    ],
    [
      'a weak new password',
      '/auth/recovery/password',
      { token: 'x'.repeat(43), password: 'weakpass' },
      'password',
      validationMessages.passwordRule,
    ],
    [
      'a missing new password',
      '/auth/recovery/password',
      { token: 'x'.repeat(43) },
      'password',
      validationMessages.required,
    ],
  ])(
    'refuses %s with the spec message',
    async (_case, url, body: Record<string, unknown>, field, message) => {
      const response = await post(url, body);
      expect(response.statusCode).toBe(400);
      const error = apiErrorSchema.parse(response.json());
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(error.details).toContainEqual({ location: 'body', path: [field], message });
    },
  );

  it('refuses a wrong captcha', async () => {
    const response = await post('/auth/recovery', { email: 'ada@example.com', reCaptchaKey: 'not-solved' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: 'CAPTCHA_INVALID',
      message: 'Please verify that you are not a robot',
    });
  });

  it('limits recovery requests per client address', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++) {
      statuses.push((await post('/auth/recovery', {}, '192.0.2.55')).statusCode);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
  });
});
