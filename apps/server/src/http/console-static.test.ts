import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../test-support/test-runtime.js';

describe('serving the built console', () => {
  let runtime: TestRuntime;
  beforeAll(async () => {
    runtime = await startTestRuntime({
      adjust: (config) => {
        config.console.directory = path.join(config.dataDir, 'console');
      },
    });
  });
  afterAll(() => runtime.close());

  // The console folder has to exist before the app registers it, so this suite builds its own app.
  let consoleRuntime: TestRuntime;
  beforeAll(async () => {
    const directory = path.join(runtime.dataDir, 'console-build');
    await mkdir(path.join(directory, 'assets'), { recursive: true });
    await writeFile(
      path.join(directory, 'index.html'),
      '<!doctype html><title>Verbatim</title><div id="root"></div>',
    );
    await writeFile(path.join(directory, 'assets', 'main-3f2a1b.js'), 'console.log("console")');
    await writeFile(path.join(directory, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    consoleRuntime = await startTestRuntime({
      adjust: (config) => {
        config.console.directory = directory;
      },
    });
  });
  afterAll(() => consoleRuntime.close());

  it('answers client-side routes with index.html naming PUBLIC_URL, never cached', async () => {
    for (const url of ['/', '/home', '/billing/history?page=2', '/some/unknown/page']) {
      // The default PUBLIC_URL, http://localhost:8080 (other hosts: public-address.test.ts).
      const response = await consoleRuntime.app.inject({
        method: 'GET',
        url,
        headers: { host: 'localhost:8080' },
      });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toMatch(/text\/html/);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toContain('<div id="root">');
      expect(response.body).toContain('<meta name="verbatim-public-url" content="http://localhost:8080">');
    }
  });

  it('serves hashed assets as immutable and other files as no-cache', async () => {
    const asset = await consoleRuntime.app.inject({ method: 'GET', url: '/assets/main-3f2a1b.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const icon = await consoleRuntime.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it('keeps JSON 404s for the API and for missing files', async () => {
    for (const url of ['/api/v1/unknown', '/api', '/assets/missing-123.js']) {
      const response = await consoleRuntime.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.json<{ code: string }>().code).toBe('ROUTE_NOT_FOUND');
    }
  });

  it('does not answer non-GET requests with the page', async () => {
    const response = await consoleRuntime.app.inject({ method: 'POST', url: '/home', payload: {} });
    expect(response.statusCode).toBe(404);
  });

  it('answers JSON 404s everywhere when the console is not built', async () => {
    const response = await runtime.app.inject({ method: 'GET', url: '/home' });
    expect(response.statusCode).toBe(404);
    expect(runtime.logs.some((line) => String(line.msg).includes('console is not built'))).toBe(true);
  });
});
