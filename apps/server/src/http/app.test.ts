import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../test-support/test-runtime.js';

describe('HTTP defaults', () => {
  let runtime: TestRuntime;
  beforeAll(async () => {
    runtime = await startTestRuntime();
  });
  afterAll(() => runtime.close());

  it('sends security headers', async () => {
    const response = await runtime.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['x-powered-by']).toBeUndefined();
  });

  it('gives every answer a request id, keeping a well-formed one from the caller', async () => {
    const generated = await runtime.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);

    const kept = await runtime.app.inject({
      method: 'GET',
      url: '/api/v1/health',
      headers: { 'x-request-id': 'trace-1234-abcd' },
    });
    expect(kept.headers['x-request-id']).toBe('trace-1234-abcd');

    const replaced = await runtime.app.inject({
      method: 'GET',
      url: '/api/v1/health',
      headers: { 'x-request-id': 'bad id with spaces <script>' },
    });
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('logs each request with its id', async () => {
    await runtime.app.inject({
      method: 'GET',
      url: '/api/v1/health',
      headers: { 'x-request-id': 'log-me-12345' },
    });
    expect(
      runtime.logs.some((line) => line.reqId === 'log-me-12345' && line.msg === 'request completed'),
    ).toBe(true);
  });

  it('has CORS off by default', async () => {
    const response = await runtime.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/health',
      headers: { origin: 'https://evil.example.com', 'access-control-request-method': 'GET' },
    });
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('CORS when configured', () => {
  let runtime: TestRuntime;
  beforeAll(async () => {
    runtime = await startTestRuntime({ env: { CORS_ORIGINS: 'https://app.example.com' } });
  });
  afterAll(() => runtime.close());

  it('allows only the listed origins', async () => {
    const allowed = await runtime.app.inject({
      method: 'GET',
      url: '/api/v1/health',
      headers: { origin: 'https://app.example.com' },
    });
    expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example.com');
    const other = await runtime.app.inject({
      method: 'GET',
      url: '/api/v1/health',
      headers: { origin: 'https://evil.example.com' },
    });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('global rate limit', () => {
  let runtime: TestRuntime;
  beforeAll(async () => {
    runtime = await startTestRuntime({ env: { RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_MS: '60000' } });
  });
  afterAll(() => runtime.close());

  it('answers 429 RATE_LIMITED with Retry-After once a client exceeds the limit', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await runtime.app.inject({ method: 'GET', url: '/api/v1/console-config' })).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await runtime.app.inject({ method: 'GET', url: '/api/v1/console-config' });
    expect(limited.json<{ code: string }>().code).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('never limits the health and readiness probes', async () => {
    for (let i = 0; i < 6; i++) {
      expect((await runtime.app.inject({ method: 'GET', url: '/api/v1/health' })).statusCode).toBe(200);
      expect((await runtime.app.inject({ method: 'GET', url: '/api/v1/ready' })).statusCode).toBe(200);
    }
  });
});
