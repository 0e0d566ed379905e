import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { easyAltcha, linkSecret, solveAltcha, strongPassword } from '../../test-support/accounts.js';
import { tokenRequest } from '../../test-support/sign-in.js';
import { startSmtpSink, type SmtpSink } from '../../test-support/smtp-sink.js';
import { startTestRuntime, type TestRuntime } from '../../test-support/test-runtime.js';
import { emailVerificationGrantType } from './identity-provider.js';

async function register(runtime: TestRuntime, email: string) {
  const response = await runtime.app.inject({
    method: 'POST',
    url: '/api/v1/auth/register',
    payload: {
      email,
      password: strongPassword,
      passConf: strongPassword,
      reCaptchaKey: await solveAltcha(runtime.app),
    },
  });
  expect(response.statusCode, response.body).toBe(201);
}

const exchange = (runtime: TestRuntime, code: string) =>
  tokenRequest(runtime, { grant_type: emailVerificationGrantType, code });

describe('opening the verification link signs the user in', () => {
  let sink: SmtpSink;
  let runtime: TestRuntime;
  beforeAll(async () => {
    sink = await startSmtpSink();
    runtime = await startTestRuntime({ workers: true, env: { SMTP_URL: sink.url }, adjust: easyAltcha });
  });
  afterAll(async () => {
    await runtime.close();
    await sink.close();
  });

  it('exchanges the code of the e-mail for tokens, once', async () => {
    await register(runtime, 'verify-me@example.com');
    const code = await linkSecret(sink, 'verify-me@example.com', '/auth/verify');

    const response = await exchange(runtime, code);
    expect(response.statusCode, response.body).toBe(200);
    const { access_token: accessToken } = response.json<{ access_token: string }>();
    const profile = await runtime.app.inject({
      method: 'GET',
      url: '/api/v1/profile',
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(profile.json()).toMatchObject({ email: 'verify-me@example.com' });
    expect(decodeJwt(accessToken).aud).toBe('http://localhost:8080/api');

    const again = await exchange(runtime, code);
    expect(again.statusCode).toBe(400);
    expect(again.json<{ code: string }>().code).toBe('BAD_TOKEN');
  });

  it('refuses codes it never issued', async () => {
    const response = await exchange(runtime, 'made-up-code-made-up-code-made-up');
    expect(response.statusCode).toBe(400);
    expect(response.json<{ code: string }>().code).toBe('BAD_TOKEN');
  });
});

describe('when new accounts wait for approval', () => {
  let sink: SmtpSink;
  let runtime: TestRuntime;
  beforeAll(async () => {
    sink = await startSmtpSink();
    runtime = await startTestRuntime({
      workers: true,
      env: { SMTP_URL: sink.url, REGISTRATION_REQUIRES_APPROVAL: 'true' },
      adjust: easyAltcha,
    });
  });
  afterAll(async () => {
    await runtime.close();
    await sink.close();
  });

  it('verifies the address but answers 403 ACCOUNT_PENDING_APPROVAL instead of tokens', async () => {
    await register(runtime, 'waiting@example.com');
    const code = await linkSecret(sink, 'waiting@example.com', '/auth/verify');
    const response = await exchange(runtime, code);
    expect(response.statusCode).toBe(403);
    expect(response.json<{ code: string }>().code).toBe('ACCOUNT_PENDING_APPROVAL');
    const account = await runtime.database.db
      .selectFrom('accounts')
      .select(['status', 'email_verified_at'])
      .where('email', '=', 'waiting@example.com')
      .executeTakeFirstOrThrow();
    expect(account.status).toBe('pending_approval');
    expect(account.email_verified_at).toBeInstanceOf(Date);
  });
});
