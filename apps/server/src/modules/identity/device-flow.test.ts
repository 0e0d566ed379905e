import { tokenResponseSchema } from '@verbatim/contracts';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CookieJar } from '../../test-support/cookie-jar.js';
import { createAccount, defaultPassword } from '../../test-support/sign-in.js';
import { startTestRuntime, type TestRuntime } from '../../test-support/test-runtime.js';

const deviceCodeGrant = 'urn:ietf:params:oauth:grant-type:device_code';
const cliClient = {
  client_id: 'verbatim-cli',
  client_name: 'Verbatim CLI',
  token_endpoint_auth_method: 'none',
  grant_types: [deviceCodeGrant, 'refresh_token'],
  response_types: [],
  redirect_uris: [],
};

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const formHeaders = { 'content-type': 'application/x-www-form-urlencoded' };

function hiddenField(html: string, name: string): string {
  const value = new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1];
  if (!value) throw new Error(`no ${name} field in the page`);
  return value;
}

describe('device flow at /api/v1/oauth/device', () => {
  let runtime: TestRuntime;
  beforeAll(async () => {
    runtime = await startTestRuntime({ env: { OIDC_CLIENTS: JSON.stringify([cliClient]) } });
  });
  afterAll(() => runtime.close());

  it('signs a device in once the user enters its code, signs in and allows it', async () => {
    const account = await createAccount(runtime);
    const device = await runtime.app.inject({
      method: 'POST',
      url: '/oidc/device/auth',
      headers: formHeaders,
      payload: form({ client_id: 'verbatim-cli', scope: 'openid offline_access' }),
    });
    expect(device.statusCode, device.body).toBe(200);
    const { device_code: deviceCode, user_code: userCode } = device.json<{
      device_code: string;
      user_code: string;
    }>();
    expect(userCode).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);

    const poll = () =>
      runtime.app.inject({
        method: 'POST',
        url: '/oidc/token',
        headers: formHeaders,
        payload: form({ grant_type: deviceCodeGrant, device_code: deviceCode, client_id: 'verbatim-cli' }),
      });
    expect((await poll()).json<{ error: string }>().error).toBe('authorization_pending');

    const jar = new CookieJar();
    const inputPage = await runtime.app.inject({
      method: 'GET',
      url: '/api/v1/oauth/device',
      headers: { 'accept-language': 'fr' },
    });
    expect(inputPage.statusCode).toBe(200);
    expect(inputPage.body).toContain('Saisissez le code affiché sur votre appareil.');
    expect(inputPage.body).not.toContain('<script');
    jar.store(inputPage);

    const wrong = await runtime.app.inject({
      method: 'POST',
      url: '/api/v1/oauth/device',
      headers: { ...formHeaders, cookie: jar.header() },
      payload: form({ xsrf: hiddenField(inputPage.body, 'xsrf'), user_code: 'ABCD-EFGH' }),
    });
    expect(wrong.body).toContain('The code you entered is incorrect.');
    jar.store(wrong);

    const confirmPage = await runtime.app.inject({
      method: 'POST',
      url: '/api/v1/oauth/device',
      headers: { ...formHeaders, cookie: jar.header() },
      // Each page carries a fresh xsrf token for its form.
      payload: form({ xsrf: hiddenField(wrong.body, 'xsrf'), user_code: userCode }),
    });
    expect(confirmPage.statusCode, confirmPage.body).toBe(200);
    expect(confirmPage.body).toContain('Verbatim CLI');
    jar.store(confirmPage);

    const confirmed = await runtime.app.inject({
      method: 'POST',
      url: '/api/v1/oauth/device',
      headers: { ...formHeaders, cookie: jar.header() },
      payload: form({
        xsrf: hiddenField(confirmPage.body, 'xsrf'),
        user_code: hiddenField(confirmPage.body, 'user_code'),
        confirm: hiddenField(confirmPage.body, 'confirm'),
      }),
    });
    expect(confirmed.statusCode, confirmed.body).toBe(303);
    jar.store(confirmed);

    // Not signed in at the provider yet: the console's interaction page asks for the password…
    let location = String(confirmed.headers.location);
    const loginUid = location.split('/').pop() ?? '';
    const login = await runtime.app.inject({
      method: 'POST',
      url: `/api/v1/auth/interactions/${loginUid}/login`,
      payload: { username: account.email, password: defaultPassword },
    });
    expect(login.statusCode, login.body).toBe(200);
    let resumed = await runtime.app.inject({
      method: 'GET',
      url: new URL(login.json<{ redirectTo: string }>().redirectTo).pathname,
      headers: { cookie: jar.header() },
    });
    jar.store(resumed);

    // …then, the CLI being a third-party application, for consent.
    location = String(resumed.headers.location);
    const consentUid = location.split('/').pop() ?? '';
    const details = await runtime.app.inject({
      method: 'GET',
      url: `/api/v1/auth/interactions/${consentUid}/details`,
    });
    expect(details.json()).toMatchObject({ prompt: 'consent', client: { name: 'Verbatim CLI' } });
    const consent = await runtime.app.inject({
      method: 'POST',
      url: `/api/v1/auth/interactions/${consentUid}/consent`,
    });
    resumed = await runtime.app.inject({
      method: 'GET',
      url: new URL(consent.json<{ redirectTo: string }>().redirectTo).pathname,
      headers: { cookie: jar.header() },
    });
    expect(resumed.statusCode, resumed.body).toBe(200);
    expect(resumed.body).toContain('Device signed in');

    const tokens = await poll();
    expect(tokens.statusCode, tokens.body).toBe(200);
    const { access_token: accessToken } = tokenResponseSchema.parse(tokens.json());
    expect(decodeJwt(accessToken)).toMatchObject({ sub: account.id, client_id: 'verbatim-cli' });
  });
});
