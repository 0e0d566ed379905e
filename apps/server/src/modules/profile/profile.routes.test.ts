import { apiErrorSchema, profileSchema } from '@verbatim/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createAccount, defaultPassword, signIn, tokenRequest } from '../../test-support/sign-in.js';
import { startTestRuntime, type TestRuntime } from '../../test-support/test-runtime.js';

describe('profile', () => {
  let runtime: TestRuntime;
  beforeAll(async () => {
    runtime = await startTestRuntime();
  });
  afterAll(() => runtime.close());

  async function signedIn(options: { fullName?: string } = {}) {
    const account = await createAccount(runtime, options);
    return { account, headers: bearer(await signIn(runtime, account.email)) };
  }

  it('GET /profile answers the signed-in account only', async () => {
    const ada = await signedIn({ fullName: 'Ada Lovelace' });
    const bob = await signedIn({ fullName: 'Bob Babbage' });
    const adaProfile = profileSchema.parse(
      (await runtime.app.inject({ method: 'GET', url: '/api/v1/profile', headers: ada.headers })).json(),
    );
    const bobProfile = profileSchema.parse(
      (await runtime.app.inject({ method: 'GET', url: '/api/v1/profile', headers: bob.headers })).json(),
    );
    expect(adaProfile).toMatchObject({ id: ada.account.id, fullName: 'Ada Lovelace', showWelcomeMsg: true });
    expect(bobProfile).toMatchObject({ id: bob.account.id, fullName: 'Bob Babbage' });
  });

  it('PUT /profile changes the full name, with the spec rule of 3 to 32 characters', async () => {
    const { account, headers } = await signedIn();
    const updated = await runtime.app.inject({
      method: 'PUT',
      url: '/api/v1/profile',
      headers,
      payload: { fullName: '  Grace Hopper  ', email: null },
    });
    expect(updated.statusCode).toBe(200);
    expect(profileSchema.parse(updated.json()).fullName).toBe('Grace Hopper');

    for (const fullName of ['Al', 'x'.repeat(33)]) {
      const rejected = await runtime.app.inject({
        method: 'PUT',
        url: '/api/v1/profile',
        headers,
        payload: { fullName },
      });
      expect(rejected.statusCode).toBe(400);
      expect(apiErrorSchema.parse(rejected.json()).details?.[0]).toMatchObject({
        path: ['fullName'],
        message: 'Invalid full name',
      });
    }
    const neither = await runtime.app.inject({ method: 'PUT', url: '/api/v1/profile', headers, payload: {} });
    expect(neither.statusCode).toBe(400);

    const audit = await runtime.database.db
      .selectFrom('audit_events')
      .select('kind')
      .where('account_id', '=', account.id)
      .execute();
    expect(audit.map((event) => event.kind)).toContain('profile.updated');
  });

  it('PUT /profile/welcome hides and shows the welcome message', async () => {
    const { headers } = await signedIn();
    for (const showWelcomeMsg of [false, true]) {
      const response = await runtime.app.inject({
        method: 'PUT',
        url: '/api/v1/profile/welcome',
        headers,
        payload: { showWelcomeMsg },
      });
      expect(profileSchema.parse(response.json()).showWelcomeMsg).toBe(showWelcomeMsg);
    }
  });

  it('POST /profile/password needs the current password, then the new one signs in', async () => {
    const { account, headers } = await signedIn();
    const wrongOld = await runtime.app.inject({
      method: 'POST',
      url: '/api/v1/profile/password',
      headers,
      payload: { oldPass: 'Not-The-Password-1', newPass: 'Brand-New-Pass-2' },
    });
    expect(wrongOld.statusCode).toBe(400);
    expect(wrongOld.json<{ code: string }>().code).toBe('PASSWORD_INCORRECT');

    const weakNew = await runtime.app.inject({
      method: 'POST',
      url: '/api/v1/profile/password',
      headers,
      payload: { oldPass: defaultPassword, newPass: 'weakpass' },
    });
    expect(weakNew.statusCode).toBe(400);
    expect(apiErrorSchema.parse(weakNew.json()).details?.[0]?.message).toMatch(
      /^Password must be 8-64 characters/,
    );

    const changed = await runtime.app.inject({
      method: 'POST',
      url: '/api/v1/profile/password',
      headers,
      payload: { oldPass: defaultPassword, newPass: 'Brand-New-Pass-2' },
    });
    expect(changed.statusCode).toBe(204);
    expect(
      (
        await tokenRequest(runtime, {
          grant_type: 'password',
          username: account.email,
          password: defaultPassword,
        })
      ).statusCode,
    ).toBe(401);
    await expect(signIn(runtime, account.email, 'Brand-New-Pass-2')).resolves.toHaveProperty('access_token');
    const audit = await runtime.database.db
      .selectFrom('audit_events')
      .select('kind')
      .where('account_id', '=', account.id)
      .execute();
    expect(audit.map((event) => event.kind)).toContain('password.changed');
  });

  it('refuses every profile route without a token', async () => {
    for (const [method, url] of [
      ['GET', '/api/v1/profile'],
      ['PUT', '/api/v1/profile'],
      ['PUT', '/api/v1/profile/welcome'],
      ['POST', '/api/v1/profile/password'],
    ] as const) {
      const response = await runtime.app.inject({ method, url, payload: {} });
      expect(response.statusCode, `${method} ${url}`).toBe(401);
    }
  });
});
