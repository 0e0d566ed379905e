import { apiErrorSchema, registerResponseSchema, validationMessages } from '@verbatim/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../errors/app-error.js';
import { Argon2PasswordHasher } from '../../platform/crypto/password-hasher.js';
import { hashSecret } from '../../platform/crypto/tokens.js';
import {
  easyAltcha,
  linkSecret,
  mailsTo,
  solveAltcha,
  startRuntimeWithMailbox,
  strongPassword,
} from '../../test-support/accounts.js';
import type { SmtpSink } from '../../test-support/smtp-sink.js';
import { startTestRuntime, type TestRuntime } from '../../test-support/test-runtime.js';
import { waitFor } from '../../test-support/wait.js';

const context = { ip: '203.0.113.9', userAgent: 'vitest' };
let nextAddress = 1;
/** Each call comes from its own client address, so the per-address limit stays out of the way. */
const freshIp = () => `10.1.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;

async function register(runtime: TestRuntime, body: Record<string, unknown>, ip = freshIp()) {
  return runtime.app.inject({
    method: 'POST',
    url: '/api/v1/auth/register',
    payload: body,
    remoteAddress: ip,
  });
}

async function validBody(runtime: TestRuntime, email: string) {
  return {
    email,
    password: strongPassword,
    passConf: strongPassword,
    reCaptchaKey: await solveAltcha(runtime.app),
  };
}

function accountOf(runtime: TestRuntime, email: string) {
  return runtime.database.db.selectFrom('accounts').selectAll().where('email', '=', email).executeTakeFirst();
}

function auditKinds(runtime: TestRuntime, accountId: string) {
  return runtime.database.db
    .selectFrom('audit_events')
    .select('kind')
    .where('account_id', '=', accountId)
    .orderBy('created_at')
    .execute()
    .then((rows) => rows.map((row) => row.kind));
}

async function expectAppError(promise: Promise<unknown>, code: string) {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe(code);
}

const weakPasswords = [
  ['a short password', 'Ab1$'],
  ['a password without a digit', 'Abcdefg$'],
  ['a password without a special character', 'Abcdefg1'],
  ['a password without an upper-case letter', 'abcdefg1$'],
  ['a password without a lower-case letter', 'ABCDEFG1$'],
  ['a too long password', `Aa1$${'x'.repeat(61)}`],
] as const;

describe('registration', () => {
  let sink: SmtpSink;
  let runtime: TestRuntime;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ runtime, sink, close } = await startRuntimeWithMailbox({
      PUBLIC_URL: 'https://stt.example.test',
      PRODUCT_NAME: 'Acme STT',
    }));
  });
  afterAll(() => close());

  it('creates a pending account with an argon2id hash and e-mails a verification link', async () => {
    const response = await register(runtime, {
      ...(await validBody(runtime, ' Ada@Example.COM ')),
      registeredAs: 'console',
    });
    expect(response.statusCode, response.body).toBe(201);
    const { user } = registerResponseSchema.parse(response.json());
    expect(user).toMatchObject({ email: 'ada@example.com', status: 'pending_verification' });

    const account = await accountOf(runtime, 'ada@example.com');
    expect(account).toMatchObject({
      id: user.id,
      status: 'pending_verification',
      email_verified_at: null,
      registered_as: 'console',
    });
    expect(account?.password_hash).toMatch(/^\$argon2id\$/);
    expect(await new Argon2PasswordHasher().verify(account?.password_hash ?? '', strongPassword)).toBe(true);
    expect(await auditKinds(runtime, user.id)).toEqual(['account.registered']);

    const code = await linkSecret(sink, 'ada@example.com', 'https://stt.example.test/auth/verify');
    const mail = mailsTo(sink, 'ada@example.com')[0] ?? '';
    expect(mail).toContain('Subject: Verify your e-mail address for Acme STT');
    expect(mail).toContain('Content-Type: text/plain');
    expect(mail).toContain('Content-Type: text/html');
    expect(mail).toContain('The Acme STT team');
    expect(mail).toContain('valid for 48 hours');

    // Only the hash of the code is stored, with a 48-hour expiry.
    const tokens = await runtime.database.db
      .selectFrom('account_tokens')
      .selectAll()
      .where('account_id', '=', user.id)
      .execute();
    expect(tokens).toHaveLength(1);
    expect(tokens[0]).toMatchObject({
      purpose: 'email_verification',
      token_hash: hashSecret(code),
      consumed_at: null,
    });
    const hoursLeft = ((tokens[0]?.expires_at.getTime() ?? 0) - Date.now()) / 3_600_000;
    expect(hoursLeft).toBeGreaterThan(47.9);
    expect(hoursLeft).toBeLessThanOrEqual(48);
  });

  it.each<[string, Record<string, unknown>, string, string]>([
    ['a missing e-mail', { email: undefined }, 'email', validationMessages.required],
    ['an empty e-mail', { email: '  ' }, 'email', validationMessages.required],
    ['a too short e-mail', { email: 'a@' }, 'email', validationMessages.emailTooShort],
    [
      'a too long e-mail',
      { email: `${'a'.repeat(21)}@example.com` },
      'email',
      validationMessages.emailTooLong,
    ],
    ['a malformed e-mail', { email: 'ada.example.com' }, 'email', validationMessages.emailInvalid],
    ['a missing password', { password: undefined }, 'password', validationMessages.required],
    ...weakPasswords.map(([name, password]): [string, Record<string, unknown>, string, string] => [
      name,
      { password, passConf: password },
      'password',
      validationMessages.passwordRule,
    ]),
    [
      'a different confirmation',
      { passConf: 'Sup3r$ecreT' },
      'passConf',
      'Password and confirm password do not match',
    ],
    [
      'a missing captcha',
      { reCaptchaKey: undefined },
      'reCaptchaKey',
      'Please verify that you are not a robot',
    ],
    ['an empty captcha', { reCaptchaKey: '' }, 'reCaptchaKey', 'Please verify that you are not a robot'],
  ])('refuses %s with the spec message', async (_case, override, field, message) => {
    const body = {
      email: 'val@example.com',
      password: strongPassword,
      passConf: strongPassword,
      reCaptchaKey: 'x',
      ...override,
    };
    const response = await register(runtime, body);
    expect(response.statusCode).toBe(400);
    const error = apiErrorSchema.parse(response.json());
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.details).toContainEqual({ location: 'body', path: [field], message });
    expect(await accountOf(runtime, 'val@example.com')).toBeUndefined();
  });

  it('refuses a wrong or forged captcha before anything else', async () => {
    for (const reCaptchaKey of [
      'not-a-solution',
      Buffer.from('{"algorithm":"SHA-256"}').toString('base64'),
    ]) {
      const response = await register(runtime, {
        ...(await validBody(runtime, 'bot@example.com')),
        reCaptchaKey,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        code: 'CAPTCHA_INVALID',
        message: 'Please verify that you are not a robot',
      });
    }
    expect(await accountOf(runtime, 'bot@example.com')).toBeUndefined();
    // A taken address with a bad captcha still gets the captcha answer: nothing is revealed without it.
    const taken = await register(runtime, {
      ...(await validBody(runtime, 'ada@example.com')),
      reCaptchaKey: 'nope',
    });
    expect(taken.json()).toMatchObject({ code: 'CAPTCHA_INVALID' });
  });

  it('refuses a captcha solution used before', async () => {
    const body = await validBody(runtime, 'once@example.com');
    expect((await register(runtime, body)).statusCode).toBe(201);
    const replay = await register(runtime, { ...body, email: 'twice@example.com' });
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toMatchObject({ code: 'CAPTCHA_INVALID' });
    expect(await accountOf(runtime, 'twice@example.com')).toBeUndefined();
  });

  it('answers 409 EMAIL_IN_USE for a taken address, whatever its case', async () => {
    for (const email of ['ada@example.com', 'ADA@example.com']) {
      const response = await register(runtime, await validBody(runtime, email));
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({
        code: 'EMAIL_IN_USE',
        message: 'This e-mail address is already in use',
      });
    }
  });

  it('creates one account when the same address is submitted twice at once', async () => {
    const bodies = [
      await validBody(runtime, 'race@example.com'),
      await validBody(runtime, 'Race@example.com'),
    ];
    const responses = await Promise.all(bodies.map((body) => register(runtime, body)));
    expect(responses.map((response) => response.statusCode).sort()).toEqual([201, 409]);
    const rows = await runtime.database.db
      .selectFrom('accounts')
      .select('id')
      .where('email', 'ilike', 'race@example.com')
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('verifyEmail activates the account, once', async () => {
    await register(runtime, await validBody(runtime, 'bo@example.com'));
    const code = await linkSecret(sink, 'bo@example.com', '/auth/verify');
    const account = await runtime.services.registration.verifyEmail(code, context);
    expect(account).toMatchObject({ email: 'bo@example.com', status: 'active' });
    expect(account.email_verified_at).toBeInstanceOf(Date);
    expect(await auditKinds(runtime, account.id)).toEqual(['account.registered', 'account.email_verified']);
    const audit = await runtime.database.db
      .selectFrom('audit_events')
      .selectAll()
      .where('kind', '=', 'account.email_verified')
      .where('account_id', '=', account.id)
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ ip: context.ip, user_agent: context.userAgent });

    await expectAppError(runtime.services.registration.verifyEmail(code, context), 'BAD_TOKEN');
    expect((await accountOf(runtime, 'bo@example.com'))?.status).toBe('active');
  });

  it('verifyEmail refuses an unknown code', async () => {
    await expectAppError(
      runtime.services.registration.verifyEmail('no-such-code-at-all', context),
      'BAD_TOKEN',
    );
  });

  it('verifyEmail refuses an expired code and leaves the account pending', async () => {
    await register(runtime, await validBody(runtime, 'late@example.com'));
    const code = await linkSecret(sink, 'late@example.com', '/auth/verify');
    await runtime.database.db
      .updateTable('account_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('token_hash', '=', hashSecret(code))
      .execute();
    await expectAppError(runtime.services.registration.verifyEmail(code, context), 'TOKEN_EXPIRED');
    await expectAppError(runtime.services.registration.verifyEmail(code, context), 'TOKEN_EXPIRED');
    expect((await accountOf(runtime, 'late@example.com'))?.status).toBe('pending_verification');
  });

  it('verifyEmail lets exactly one of two concurrent calls succeed', async () => {
    await register(runtime, await validBody(runtime, 'twin@example.com'));
    const code = await linkSecret(sink, 'twin@example.com', '/auth/verify');
    const results = await Promise.allSettled([
      runtime.services.registration.verifyEmail(code, context),
      runtime.services.registration.verifyEmail(code, context),
    ]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    const failure = results.find((result) => result.status === 'rejected');
    expect((failure?.reason as AppError).code).toBe('BAD_TOKEN');
    const verifiedEvents = await runtime.database.db
      .selectFrom('audit_events')
      .select('id')
      .where('kind', '=', 'account.email_verified')
      .where('account_id', '=', (await accountOf(runtime, 'twin@example.com'))?.id ?? '')
      .execute();
    expect(verifiedEvents).toHaveLength(1);
  });

  it('resend sends a new link that replaces the old one, and answers the same for unknown addresses', async () => {
    await register(runtime, await validBody(runtime, 'cy@example.com'));
    const first = await linkSecret(sink, 'cy@example.com', '/auth/verify');

    const resend = (email: string) =>
      runtime.app.inject({
        method: 'POST',
        url: '/api/v1/auth/register/resend',
        payload: { email },
        remoteAddress: freshIp(),
      });
    const unknown = await resend('nobody@example.com');
    const active = await resend('bo@example.com');
    const known = await resend('cy@example.com');
    for (const response of [unknown, active, known]) {
      expect(response.statusCode).toBe(202);
      expect(response.body).toBe(known.body);
    }
    expect(known.json()).toEqual({ accepted: true });

    const second = await linkSecret(sink, 'cy@example.com', '/auth/verify', 2);
    expect(second).not.toBe(first);
    await expectAppError(runtime.services.registration.verifyEmail(first, context), 'BAD_TOKEN');
    expect((await runtime.services.registration.verifyEmail(second, context)).status).toBe('active');
    // Known mail arrives through the same queue, so by now the other two would have been sent.
    await waitFor(() => sink.received.length > 0, 'mail');
    expect(mailsTo(sink, 'nobody@example.com')).toEqual([]);
    expect(mailsTo(sink, 'bo@example.com')).toHaveLength(1);
  });

  it('limits registrations per client address', async () => {
    const ip = '192.0.2.77';
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt++)
      statuses.push((await register(runtime, {}, ip)).statusCode);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(400));
    expect(statuses[10]).toBe(429);
    expect((await register(runtime, {}, ip)).json()).toMatchObject({ code: 'RATE_LIMITED' });
    // Other addresses are unaffected.
    expect((await register(runtime, {})).statusCode).toBe(400);
  });
});

describe('registration with approval, on the embedded outbox', () => {
  let runtime: TestRuntime;
  beforeAll(async () => {
    runtime = await startTestRuntime({ env: { REGISTRATION_REQUIRES_APPROVAL: 'true' }, adjust: easyAltcha });
  });
  afterAll(() => runtime.close());

  it('logs the verification link, and verifying leads to pending approval', async () => {
    const response = await register(runtime, await validBody(runtime, 'dee@example.com'));
    expect(response.statusCode).toBe(201);
    const line = runtime.logs.find(
      (entry) =>
        typeof entry.msg === 'string' && entry.msg.startsWith('verification link for dee@example.com: '),
    );
    expect(line?.level).toBe(30);
    const match = /http:\/\/localhost:8080\/auth\/verify\/([\w-]+)$/.exec(String(line?.msg));
    expect(match?.[1]).toBeTruthy();

    const account = await runtime.services.registration.verifyEmail(match?.[1] ?? '', context);
    expect(account.status).toBe('pending_approval');
    expect(account.email_verified_at).toBeInstanceOf(Date);
  });
});
