import { createHash, randomBytes } from 'node:crypto';
import { interactionDetailsSchema, tokenResponseSchema } from '@verbatim/contracts';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CookieJar } from '../../test-support/cookie-jar.js';
import { createAccount, defaultPassword } from '../../test-support/sign-in.js';
import { startTestRuntime, type TestRuntime } from '../../test-support/test-runtime.js';

const redirectUri = 'http://localhost:8080/auth/login-success';

describe('authorization code flow with PKCE (the console)', () => {
  let runtime: TestRuntime;
  beforeAll(async () => {
    runtime = await startTestRuntime();
  });
  afterAll(() => runtime.close());

  async function startFlow(jar: CookieJar, verifier: string) {
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const query = new URLSearchParams({
      client_id: 'verbatim-console',
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'openid email profile offline_access api',
      state: 'state-123',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const response = await runtime.app.inject({ method: 'GET', url: `/oidc/auth?${query.toString()}` });
    expect(response.statusCode, response.body).toBe(303);
    jar.store(response);
    const location = new URL(String(response.headers.location), 'http://localhost:8080');
    expect(location.pathname).toMatch(/^\/interaction\/[\w-]+$/);
    return location.pathname.split('/').pop() ?? '';
  }

  it('signs in on the interaction page and exchanges the code for API tokens', async () => {
    const account = await createAccount(runtime);
    const jar = new CookieJar();
    const verifier = randomBytes(32).toString('base64url');
    const uid = await startFlow(jar, verifier);

    const details = await runtime.app.inject({
      method: 'GET',
      url: `/api/v1/auth/interactions/${uid}/details`,
    });
    expect(interactionDetailsSchema.parse(details.json())).toMatchObject({
      uid,
      prompt: 'login',
      client: { id: 'verbatim-console', name: 'Verbatim' },
    });

    const wrong = await runtime.app.inject({
      method: 'POST',
      url: `/api/v1/auth/interactions/${uid}/login`,
      payload: { username: account.email, password: 'Wrong-Password-1' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json<{ code: string; message: string }>()).toMatchObject({
      code: 'INVALID_CREDENTIALS',
      message: 'Wrong username or password.',
    });

    const login = await runtime.app.inject({
      method: 'POST',
      url: `/api/v1/auth/interactions/${uid}/login`,
      payload: { username: account.email, password: defaultPassword },
    });
    expect(login.statusCode, login.body).toBe(200);
    const { redirectTo } = login.json<{ redirectTo: string }>();
    expect(redirectTo).toBe(`http://localhost:8080/oidc/auth/${uid}`);

    // The browser follows redirectTo; the console is first-party, so no consent step follows.
    const resumed = await runtime.app.inject({
      method: 'GET',
      url: new URL(redirectTo).pathname,
      headers: { cookie: jar.header() },
    });
    expect(resumed.statusCode, resumed.body).toBe(303);
    jar.store(resumed);

    const callback = new URL(String(resumed.headers.location));
    expect(`${callback.origin}${callback.pathname}`).toBe(redirectUri);
    expect(callback.searchParams.get('state')).toBe('state-123');
    const code = callback.searchParams.get('code') ?? '';

    const exchange = (codeVerifier: string) =>
      runtime.app.inject({
        method: 'POST',
        url: '/oidc/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          grant_type: 'authorization_code',
          client_id: 'verbatim-console',
          code,
          redirect_uri: redirectUri,
          code_verifier: codeVerifier,
        }).toString(),
      });
    // The wrong verifier is refused: PKCE binds the code to whoever started the flow.
    expect((await exchange(randomBytes(32).toString('base64url'))).statusCode).toBe(400);

    // A failed PKCE check leaves the code usable by whoever holds the right verifier.
    const tokens = await exchange(verifier);
    expect(tokens.statusCode, tokens.body).toBe(200);
    const { access_token: accessToken } = tokenResponseSchema.parse(tokens.json());
    expect(decodeJwt(accessToken)).toMatchObject({ sub: account.id, aud: 'http://localhost:8080/api' });
    const profile = await runtime.app.inject({
      method: 'GET',
      url: '/api/v1/profile',
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(profile.statusCode).toBe(200);
  });

  it('refuses a flow without PKCE', async () => {
    const query = new URLSearchParams({
      client_id: 'verbatim-console',
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'openid api',
    });
    const response = await runtime.app.inject({ method: 'GET', url: `/oidc/auth?${query.toString()}` });
    expect(response.statusCode).toBe(303);
    expect(String(response.headers.location)).toContain('error=invalid_request');
  });

  it('answers 404 for an interaction that does not exist', async () => {
    const response = await runtime.app.inject({
      method: 'GET',
      url: '/api/v1/auth/interactions/nope/details',
    });
    expect(response.statusCode).toBe(404);
    expect(response.json<{ code: string }>().code).toBe('NOT_FOUND');
  });
});

describe('signing out of the identity provider', () => {
  let runtime: TestRuntime;
  beforeAll(async () => {
    runtime = await startTestRuntime();
  });
  afterAll(() => runtime.close());

  const authorize = (jar: CookieJar) => {
    const query = new URLSearchParams({
      client_id: 'verbatim-console',
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'openid api',
      code_challenge: createHash('sha256').update('v'.repeat(43)).digest('base64url'),
      code_challenge_method: 'S256',
    });
    return runtime.app.inject({
      method: 'GET',
      url: `/oidc/auth?${query.toString()}`,
      headers: { cookie: jar.header() },
    });
  };

  it('shows our sign-out page, then ends the session so the next sign-in asks for the password', async () => {
    const account = await createAccount(runtime);
    const jar = new CookieJar();
    const started = await authorize(jar);
    jar.store(started);
    const uid = String(started.headers.location).split('/').pop() ?? '';
    const login = await runtime.app.inject({
      method: 'POST',
      url: `/api/v1/auth/interactions/${uid}/login`,
      payload: { username: account.email, password: defaultPassword },
    });
    const resumed = await runtime.app.inject({
      method: 'GET',
      url: new URL(login.json<{ redirectTo: string }>().redirectTo).pathname,
      headers: { cookie: jar.header() },
    });
    jar.store(resumed);
    // Signed in at the provider: a new authorization goes straight back with a code.
    const silent = await authorize(jar);
    expect(String(silent.headers.location)).toContain(`${redirectUri}?code=`);

    const confirmPage = await runtime.app.inject({
      method: 'GET',
      url: `/oidc/session/end?client_id=verbatim-console&post_logout_redirect_uri=${encodeURIComponent('http://localhost:8080/auth/logout-success')}`,
      headers: { cookie: jar.header() },
    });
    expect(confirmPage.statusCode).toBe(200);
    expect(confirmPage.body).toContain('Yes, sign me out');
    expect(confirmPage.body).not.toMatch(/googleapis|<script/);
    jar.store(confirmPage);
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(confirmPage.body)?.[1] ?? '';
    const ended = await runtime.app.inject({
      method: 'POST',
      url: '/oidc/session/end/confirm',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.header() },
      payload: new URLSearchParams({ xsrf, logout: 'yes' }).toString(),
    });
    expect(ended.statusCode, ended.body).toBe(303);
    expect(String(ended.headers.location)).toBe('http://localhost:8080/auth/logout-success');
    jar.store(ended);

    const afterwards = await authorize(jar);
    expect(String(afterwards.headers.location)).toMatch(/^\/interaction\//);
  });
});
