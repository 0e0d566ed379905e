import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountsAdminService } from '../accounts/accounts-admin.service.js';
import {
  linkSecret,
  solveAltcha,
  startRuntimeWithMailbox,
  type RuntimeWithMailbox,
} from '../../test-support/accounts.js';
import { bearer, createAccount, defaultPassword, signIn, tokenRequest } from '../../test-support/sign-in.js';

describe('signing an account out everywhere', () => {
  let env: RuntimeWithMailbox;
  beforeAll(async () => {
    env = await startRuntimeWithMailbox();
  });
  afterAll(() => env.close());

  const refresh = (refreshToken: string | undefined) =>
    tokenRequest(env.runtime, { grant_type: 'refresh_token', refresh_token: refreshToken ?? '' });

  it('a password change keeps the session that made it and ends the others', async () => {
    const account = await createAccount(env.runtime);
    const laptop = await signIn(env.runtime, account.email);
    const phone = await signIn(env.runtime, account.email);
    const changed = await env.runtime.app.inject({
      method: 'POST',
      url: '/api/v1/profile/password',
      headers: bearer(laptop),
      payload: { oldPass: defaultPassword, newPass: 'Another-Pass-3' },
    });
    expect(changed.statusCode).toBe(204);
    expect((await refresh(phone.refresh_token)).statusCode).toBe(400);
    expect((await refresh(laptop.refresh_token)).statusCode).toBe(200);
  });

  it('a recovered password ends every session', async () => {
    const account = await createAccount(env.runtime);
    const session = await signIn(env.runtime, account.email);
    const requested = await env.runtime.app.inject({
      method: 'POST',
      url: '/api/v1/auth/recovery',
      payload: { email: account.email, reCaptchaKey: await solveAltcha(env.runtime.app) },
    });
    expect(requested.statusCode).toBe(202);
    const token = await linkSecret(env.sink, account.email, '/auth/recovery');
    const recovered = await env.runtime.app.inject({
      method: 'POST',
      url: '/api/v1/auth/recovery/password',
      payload: { token, password: 'Recovered-Pass-4' },
    });
    expect(recovered.statusCode).toBe(200);
    expect((await refresh(session.refresh_token)).statusCode).toBe(400);
  });

  it('deactivating an account ends every session', async () => {
    const account = await createAccount(env.runtime);
    const session = await signIn(env.runtime, account.email);
    await new AccountsAdminService(env.runtime.database.db).deactivate(account.email);
    expect((await refresh(session.refresh_token)).statusCode).toBe(400);
    const profile = await env.runtime.app.inject({
      method: 'GET',
      url: '/api/v1/profile',
      headers: bearer(session),
    });
    expect(profile.statusCode).toBe(401);
  });
});
