import { consoleConfigSchema, healthSchema, readinessSchema } from '@verbatim/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../../test-support/test-runtime.js';

describe('system routes', () => {
  let runtime: TestRuntime;
  beforeAll(async () => {
    runtime = await startTestRuntime({
      env: {
        PRODUCT_NAME: 'Acme STT',
        LINK_SOCIAL: 'GitHub=https://github.com/acme',
        LINK_DOCS_URL: 'https://docs.acme.test',
      },
    });
  });
  afterAll(() => runtime.close());

  it('GET /api/v1/health answers while the process is up', async () => {
    const response = await runtime.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(response.statusCode).toBe(200);
    const health = healthSchema.parse(response.json());
    expect(health.version).toBe('0.0.0-test');
  });

  it('GET /api/v1/ready reports the database reachable and every migration applied', async () => {
    const response = await runtime.app.inject({ method: 'GET', url: '/api/v1/ready' });
    expect(response.statusCode).toBe(200);
    const readiness = readinessSchema.parse(response.json());
    expect(readiness.status).toBe('ready');
    expect(readiness.checks.database.ok).toBe(true);
    expect(readiness.checks.migrations).toEqual({ ok: true, pending: [] });
  });

  it('GET /api/v1/console-config gives the product name and configured links', async () => {
    const response = await runtime.app.inject({ method: 'GET', url: '/api/v1/console-config' });
    expect(response.statusCode).toBe(200);
    const config = consoleConfigSchema.parse(response.json());
    expect(config.productName).toBe('Acme STT');
    expect(config.links.docs).toBe('https://docs.acme.test');
    expect(config.links.social).toEqual([{ name: 'GitHub', url: 'https://github.com/acme' }]);
  });
});

describe('readiness when the database is gone', () => {
  it('answers 503 not_ready naming the database', async () => {
    const runtime = await startTestRuntime();
    try {
      await runtime.queue.stop(1000);
      await runtime.database.pool.end();
      const response = await runtime.app.inject({ method: 'GET', url: '/api/v1/ready' });
      expect(response.statusCode).toBe(503);
      const readiness = readinessSchema.parse(response.json());
      expect(readiness.status).toBe('not_ready');
      expect(readiness.checks.database.ok).toBe(false);
      // Liveness is about the process, not its dependencies.
      expect((await runtime.app.inject({ method: 'GET', url: '/api/v1/health' })).statusCode).toBe(200);
    } finally {
      // Closing what is already closed is logged, not thrown.
      await runtime.close();
    }
  });
});
