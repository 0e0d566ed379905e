import { profileSchema } from '@verbatim/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailVerificationGrantType } from '../identity/identity-provider.js';
import {
  linkSecret,
  mailsTo,
  startRuntimeWithMailbox,
  type RuntimeWithMailbox,
} from '../../test-support/accounts.js';
import { bearer, createAccount, signIn, tokenRequest } from '../../test-support/sign-in.js';
import { waitFor } from '../../test-support/wait.js';

describe('changing the e-mail address', () => {
  let env: RuntimeWithMailbox;
  beforeAll(async () => {
    env = await startRuntimeWithMailbox();
  });
  afterAll(() => env.close());

  const putProfile = (headers: Record<string, string>, payload: object) =>
    env.runtime.app.inject({ method: 'PUT', url: '/api/v1/profile', headers, payload });

  it('takes effect only once the link sent to the new address is opened, and tells the old one', async () => {
    const account = await createAccount(env.runtime, { email: 'old-address@example.com' });
    const headers = bearer(await signIn(env.runtime, account.email));

    const requested = await putProfile(headers, { fullName: null, email: 'New-Address@Example.com' });
    expect(requested.statusCode, requested.body).toBe(200);
    expect(profileSchema.parse(requested.json())).toMatchObject({
      email: 'old-address@example.com',
      pendingEmail: 'new-address@example.com',
    });

    const code = await linkSecret(env.sink, 'new-address@example.com', '/auth/verify');
    // Opening the link signs in, like the verification link of a new account.
    const confirmed = await tokenRequest(env.runtime, { grant_type: emailVerificationGrantType, code });
    expect(confirmed.statusCode, confirmed.body).toBe(200);

    const profile = profileSchema.parse(
      (await env.runtime.app.inject({ method: 'GET', url: '/api/v1/profile', headers })).json(),
    );
    expect(profile).toMatchObject({ email: 'new-address@example.com', pendingEmail: null });
    await waitFor(
      () => mailsTo(env.sink, 'old-address@example.com').length === 1,
      'the notice to the old address',
    );
    expect(mailsTo(env.sink, 'old-address@example.com')[0]).toContain('is now new-address@example.com');
    await expect(signIn(env.runtime, 'new-address@example.com')).resolves.toHaveProperty('access_token');

    const reused = await tokenRequest(env.runtime, { grant_type: emailVerificationGrantType, code });
    expect(reused.json<{ code: string }>().code).toBe('BAD_TOKEN');
  });

  it('refuses an address another account uses, at request and at confirmation', async () => {
    const taken = await createAccount(env.runtime, { email: 'taken@example.com' });
    const account = await createAccount(env.runtime, { email: 'wants-it@example.com' });
    const headers = bearer(await signIn(env.runtime, account.email));
    const refused = await putProfile(headers, { email: taken.email.toUpperCase() });
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ code: string }>().code).toBe('EMAIL_IN_USE');

    // Free when asked, taken by the time the link is opened.
    expect((await putProfile(headers, { email: 'race@example.com' })).statusCode).toBe(200);
    const code = await linkSecret(env.sink, 'race@example.com', '/auth/verify');
    await createAccount(env.runtime, { email: 'race@example.com' });
    const confirmed = await tokenRequest(env.runtime, { grant_type: emailVerificationGrantType, code });
    expect(confirmed.statusCode).toBe(409);
    expect(confirmed.json<{ code: string }>().code).toBe('EMAIL_IN_USE');
  });

  it('rejects an invalid address with the spec message, and cancels a pending change with the current one', async () => {
    const account = await createAccount(env.runtime);
    const headers = bearer(await signIn(env.runtime, account.email));
    const invalid = await putProfile(headers, { email: 'not-an-address' });
    expect(invalid.statusCode).toBe(400);
    expect(JSON.stringify(invalid.json())).toContain('Please fill in a valid email address');

    await putProfile(headers, { email: 'later@example.com' });
    const cancelled = await putProfile(headers, { email: account.email });
    expect(profileSchema.parse(cancelled.json()).pendingEmail).toBeNull();
  });
});
