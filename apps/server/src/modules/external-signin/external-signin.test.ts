import { createHash, randomBytes } from 'node:crypto';
import {
  externalProvidersSchema,
  interactionDetailsSchema,
  profileSchema,
  tokenResponseSchema,
} from '@verbatim/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/config.js';
import { CookieJar } from '../../test-support/cookie-jar.js';
import {
  authorizeAtGoogleStandIn,
  startGithubStandIn,
  startGoogleStandIn,
  type StandInProvider,
} from '../../test-support/external-providers.js';
import { bearer, createAccount, tokenRequest } from '../../test-support/sign-in.js';
import { startTestRuntime, type TestRuntime } from '../../test-support/test-runtime.js';

const redirectUri = 'http://localhost:8080/auth/login/external';
const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

describe('signing in with Google or GitHub', () => {
  let google: StandInProvider;
  let github: StandInProvider;
  let runtime: TestRuntime;

  beforeAll(async () => {
    google = await startGoogleStandIn({
      clientId: 'google-client',
      clientSecret: 'google-secret',
      redirectUri,
    });
    github = await startGithubStandIn(
      {
        'code-octocat': {
          id: 583231,
          login: 'octocat',
          name: 'The Octocat',
          email: 'octocat@github.test',
          verified: true,
        },
        'code-unverified': {
          id: 42,
          login: 'shady',
          name: 'Shady',
          email: 'shady@github.test',
          verified: false,
        },
        'code-existing': {
          id: 7,
          login: 'existing',
          name: 'Existing',
          email: 'existing@example.com',
          verified: true,
        },
      },
      { clientId: 'github-client', clientSecret: 'github-secret' },
    );
    runtime = await startTestRuntime({
      env: {
        OAUTH_GOOGLE_CLIENT_ID: 'google-client',
        OAUTH_GOOGLE_CLIENT_SECRET: 'google-secret',
        OAUTH_GOOGLE_ISSUER: google.url,
        OAUTH_GITHUB_CLIENT_ID: 'github-client',
        OAUTH_GITHUB_CLIENT_SECRET: 'github-secret',
        OAUTH_GITHUB_URL: github.url,
        OAUTH_GITHUB_API_URL: github.url,
        OIDC_CLIENTS: JSON.stringify([
          {
            client_id: 'notes-app',
            client_name: 'Notes',
            token_endpoint_auth_method: 'none',
            redirect_uris: ['http://localhost:9999/callback'],
          },
        ]),
      },
    });
  });
  afterAll(async () => {
    await runtime.close();
    await google.close();
    await github.close();
  });

  const exchange = (provider: string, code: string, codeVerifier: string) =>
    tokenRequest(runtime, {
      grant_type: 'third_party',
      provider,
      code,
      code_verifier: codeVerifier,
      registeredAs: 'console',
    });
  const profileOf = async (tokens: unknown) =>
    profileSchema.parse(
      (
        await runtime.app.inject({
          method: 'GET',
          url: '/api/v1/profile',
          headers: bearer(tokenResponseSchema.parse(tokens)),
        })
      ).json(),
    );

  it('lists the configured providers', async () => {
    const response = await runtime.app.inject({ method: 'GET', url: '/api/v1/auth/external-providers' });
    expect(externalProvidersSchema.parse(response.json())).toEqual([
      { id: 'google', name: 'Google' },
      { id: 'github', name: 'GitHub' },
    ]);
  });

  it('signs in with Google: redirect, code, the third_party grant, then the same account next time', async () => {
    const signInOnce = async () => {
      const { verifier, challenge } = pkce();
      const state = `google.${randomBytes(16).toString('hex')}`;
      const start = await runtime.app.inject({
        method: 'GET',
        url: `/api/v1/auth/external-providers/google/authorization-url?state=${state}&codeChallenge=${challenge}`,
      });
      expect(start.statusCode, start.body).toBe(200);
      const callback = await authorizeAtGoogleStandIn(start.json<{ url: string }>().url, 'alice');
      expect(`${callback.origin}${callback.pathname}`, callback.toString()).toBe(redirectUri);
      expect(callback.searchParams.get('error'), callback.toString()).toBeNull();
      expect(callback.searchParams.get('state')).toBe(state);
      const tokens = await exchange('google', callback.searchParams.get('code') ?? '', verifier);
      expect(tokens.statusCode, tokens.body).toBe(200);
      return profileOf(tokens.json());
    };
    const first = await signInOnce();
    expect(first).toMatchObject({ email: 'alice@gmail.test', fullName: 'Test alice' });
    const second = await signInOnce();
    expect(second.id).toBe(first.id);
  });

  it('signs in with GitHub, linking an existing account with the same verified address', async () => {
    const existing = await createAccount(runtime, { email: 'existing@example.com' });
    const tokens = await exchange('github', 'code-existing', pkce().verifier);
    expect(tokens.statusCode, tokens.body).toBe(200);
    expect((await profileOf(tokens.json())).id).toBe(existing.id);

    const created = await exchange('github', 'code-octocat', pkce().verifier);
    expect((await profileOf(created.json())).email).toBe('octocat@github.test');
  });

  it('refuses codes the provider refuses, and identities without a verified address', async () => {
    for (const [provider, code] of [
      ['github', 'code-forged'],
      ['github', 'code-unverified'],
      ['google', 'not-a-google-code'],
    ] as const) {
      const response = await exchange(provider, code, pkce().verifier);
      expect(response.statusCode, `${provider} ${code}`).toBe(400);
      expect(response.json<{ code: string }>().code).toBe('EXTERNAL_SIGNIN_FAILED');
    }
    const unknown = await exchange('myspace', 'x', pkce().verifier);
    expect(unknown.statusCode).toBe(404);
  });

  it("signs in at another application's sign-in step with Google, then asks for consent", async () => {
    const jar = new CookieJar();
    const app = pkce();
    const query = new URLSearchParams({
      client_id: 'notes-app',
      redirect_uri: 'http://localhost:9999/callback',
      response_type: 'code',
      scope: 'openid email',
      code_challenge: app.challenge,
      code_challenge_method: 'S256',
    });
    const started = await runtime.app.inject({ method: 'GET', url: `/oidc/auth?${query.toString()}` });
    jar.store(started);
    const uid = String(started.headers.location).split('/').pop() ?? '';
    const loginExternally = (body: object) =>
      runtime.app.inject({
        method: 'POST',
        url: `/api/v1/auth/interactions/${uid}/login/external`,
        payload: body,
      });

    const { verifier, challenge } = pkce();
    const state = `google.${randomBytes(16).toString('hex')}`;
    const start = await runtime.app.inject({
      method: 'GET',
      url: `/api/v1/auth/external-providers/google/authorization-url?state=${state}&codeChallenge=${challenge}`,
    });
    const callback = await authorizeAtGoogleStandIn(start.json<{ url: string }>().url, 'bob');
    const code = callback.searchParams.get('code') ?? '';

    const refused = await loginExternally({ provider: 'google', code: 'forged', codeVerifier: verifier });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ code: string }>().code).toBe('EXTERNAL_SIGNIN_FAILED');

    const login = await loginExternally({ provider: 'google', code, codeVerifier: verifier });
    expect(login.statusCode, login.body).toBe(200);
    const resumed = await runtime.app.inject({
      method: 'GET',
      url: new URL(login.json<{ redirectTo: string }>().redirectTo).pathname,
      headers: { cookie: jar.header() },
    });
    expect(resumed.statusCode, resumed.body).toBe(303);
    const consentUid = String(resumed.headers.location).split('/').pop() ?? '';
    const details = await runtime.app.inject({
      method: 'GET',
      url: `/api/v1/auth/interactions/${consentUid}/details`,
    });
    expect(interactionDetailsSchema.parse(details.json())).toMatchObject({
      prompt: 'consent',
      client: { id: 'notes-app', name: 'Notes' },
      requestedScopes: expect.arrayContaining(['email']) as unknown,
    });
    const account = await runtime.database.db
      .selectFrom('accounts')
      .select('email')
      .where('email', '=', 'bob@gmail.test')
      .executeTakeFirst();
    expect(account).toBeDefined();
  });

  it('builds authorization URLs only with a state that names the provider', async () => {
    const { challenge } = pkce();
    const wrongState = await runtime.app.inject({
      method: 'GET',
      url: `/api/v1/auth/external-providers/github/authorization-url?state=google.${'a'.repeat(16)}&codeChallenge=${challenge}`,
    });
    expect(wrongState.statusCode).toBe(400);
    const github = await runtime.app.inject({
      method: 'GET',
      url: `/api/v1/auth/external-providers/github/authorization-url?state=github.${'a'.repeat(16)}&codeChallenge=${challenge}`,
    });
    const url = new URL(github.json<{ url: string }>().url);
    expect(url.pathname).toBe('/login/oauth/authorize');
    expect(url.searchParams.get('redirect_uri')).toBe(redirectUri);
    expect(url.searchParams.get('code_challenge')).toBe(challenge);
  });
});

describe('third-party sign-in configuration', () => {
  it('offers no provider by default, and refuses a client id without its secret', () => {
    expect(loadConfig({}).identity.externalProviders).toEqual({});
    expect(() => loadConfig({ OAUTH_GITHUB_CLIENT_ID: 'x' })).toThrow(
      /OAUTH_GITHUB_CLIENT_SECRET: required together/,
    );
  });
});
