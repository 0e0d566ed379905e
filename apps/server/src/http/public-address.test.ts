import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { apiErrorSchema } from '@verbatim/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, defaultPassword } from '../test-support/sign-in.js';
import { startTestRuntime, type TestRuntime } from '../test-support/test-runtime.js';
import { isLoopbackHost } from './public-address.js';

const publicUrl = 'http://localhost:8080';

describe('the console at another address than PUBLIC_URL', () => {
  let runtime: TestRuntime;
  let consoleDirectory: string;
  beforeAll(async () => {
    // The console folder has to exist before the app registers it.
    consoleDirectory = await mkdtemp(path.join(tmpdir(), 'verbatim-console-'));
    await writeFile(
      path.join(consoleDirectory, 'index.html'),
      '<!doctype html><html><head><title>Verbatim</title></head><body><div id="root"></div></body></html>',
    );
    runtime = await startTestRuntime({
      env: { PUBLIC_URL: publicUrl },
      adjust: (config) => {
        config.console.directory = consoleDirectory;
      },
    });
  });
  afterAll(() => rm(consoleDirectory, { recursive: true, force: true }));
  afterAll(() => runtime.close());

  const page = (url: string, host: string, options: { remoteAddress?: string; cookie?: string } = {}) =>
    runtime.app.inject({
      method: 'GET',
      url,
      headers: { host, ...(options.cookie ? { cookie: options.cookie } : {}) },
      remoteAddress: options.remoteAddress ?? '127.0.0.1',
    });
  const warnings = (text: string) =>
    runtime.logs.filter((line) => line.level === 40 && String(line.msg).includes(text));

  it('redirects a page load to PUBLIC_URL, keeping path and query, and logs the host once', async () => {
    const response = await page('/billing/history?page=2&q=a%20b', '127.0.0.1:8080');
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(`${publicUrl}/billing/history?page=2&q=a%20b`);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(String(response.headers['set-cookie'])).toMatch(/^verbatim_public_url_redirect=1; Max-Age=60;/);
    expect((await page('/', '127.0.0.1:8080')).headers.location).toBe(`${publicUrl}/`);
    expect((await page('/home', '127.0.0.1:8080')).statusCode).toBe(302);
    // A LAN address of the server, from a browser on the server itself, and a port that differs.
    expect((await page('/login', '192.168.1.5:8080')).headers.location).toBe(`${publicUrl}/login`);
    expect((await page('/login', 'localhost:9090')).headers.location).toBe(`${publicUrl}/login`);

    const logged = warnings('the console was opened at 127.0.0.1:8080, not at PUBLIC_URL');
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ host: '127.0.0.1:8080', publicUrl });
    expect(String(logged[0]?.msg)).toContain('set PUBLIC_URL');
  });

  it('serves the page at PUBLIC_URL itself, naming it for the console', async () => {
    const response = await page('/home?tab=1', 'LOCALHOST:8080');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(`<head><meta name="verbatim-public-url" content="${publicUrl}"><title>`);
  });

  it('never redirects the API, the identity provider or other methods, whatever the host', async () => {
    const health = await page('/api/v1/health', '127.0.0.1:8080');
    expect(health.statusCode).toBe(200);
    const discovery = await page('/oidc/.well-known/openid-configuration', '192.168.1.5:8080');
    expect(discovery.statusCode).toBe(200);
    // The provider's own addresses still name PUBLIC_URL.
    expect(discovery.json<{ issuer: string }>().issuer).toBe(`${publicUrl}/oidc`);
    const unknownApi = await page('/api/v1/unknown?x=1', '127.0.0.1:8080');
    expect(unknownApi.statusCode).toBe(404);
    expect(apiErrorSchema.parse(unknownApi.json()).code).toBe('ROUTE_NOT_FOUND');
    const post = await runtime.app.inject({
      method: 'POST',
      url: '/home',
      headers: { host: '127.0.0.1:8080' },
      payload: {},
    });
    expect(post.statusCode).toBe(404);
  });

  it('serves the page instead of redirecting in a circle when a proxy rewrites the Host header', async () => {
    // The browser is at PUBLIC_URL and sends our marker back; the Host header still differs.
    const response = await page('/home', '10.0.0.7:8080', { cookie: 'a=b; verbatim_public_url_redirect=1' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<div id="root">');
    expect(warnings('a proxy in front rewrites it')).toHaveLength(1);
  });

  it('lets the console explain when PUBLIC_URL names localhost but the browser is on another machine', async () => {
    const response = await page('/login?next=%2Fhome', '192.168.1.5:8080', { remoteAddress: '192.168.1.20' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(`<meta name="verbatim-public-url" content="${publicUrl}">`);
    const logged = warnings('by a client at 192.168.1.20');
    expect(logged).toHaveLength(1);
    expect(String(logged[0]?.msg)).toContain(
      'Set PUBLIC_URL to the address users open (for example http://192.168.1.5:8080)',
    );
  });

  it('answers a sign-in from a page at another origin with an API error saying where to sign in', async () => {
    const account = await createAccount(runtime);
    const signIn = (origin: string) =>
      runtime.app.inject({
        method: 'POST',
        url: '/api/v1/auth/profile/verify',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin, host: '127.0.0.1:8080' },
        payload: new URLSearchParams({
          client_id: 'verbatim-console',
          grant_type: 'password',
          username: account.email,
          password: defaultPassword,
        }).toString(),
      });
    const refused = await signIn('http://127.0.0.1:8080');
    expect(refused.statusCode).toBe(400);
    const error = apiErrorSchema.parse(refused.json());
    expect(error.code).toBe('BAD_REQUEST');
    expect(error.message).toBe(
      `Sign in at ${publicUrl}: this server's address, set by PUBLIC_URL. This page is at http://127.0.0.1:8080, where signing in is not possible.`,
    );
    expect(warnings('a sign-in came from a page at http://127.0.0.1:8080')).toHaveLength(1);
    // From the console's own origin it works, whatever Host header a proxy passes on.
    expect((await signIn(publicUrl)).statusCode).toBe(200);
  });

  it('tells loopback host names from others', () => {
    for (const host of [
      'localhost',
      'LOCALHOST',
      'app.localhost',
      '127.0.0.1',
      '127.1.2.3',
      '[::1]',
      '::1',
    ]) {
      expect(isLoopbackHost(host), host).toBe(true);
    }
    for (const host of ['192.168.1.5', 'example.com', 'localhost.example.com', '[::2]', '1127.0.0.1']) {
      expect(isLoopbackHost(host), host).toBe(false);
    }
  });
});
