import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startTestRuntime } from './test-support/test-runtime.js';

describe('graceful shutdown', () => {
  it('finishes in-flight requests, refuses new connections, then closes the database', async () => {
    const runtime = await startTestRuntime({ workers: true });
    let releaseSlowRequest!: () => void;
    const slowRequestArrived = new Promise<void>((arrived) => {
      runtime.app.get('/api/v1/test-slow', async () => {
        arrived();
        await new Promise<void>((resolve) => (releaseSlowRequest = resolve));
        return { finished: true };
      });
    });
    await runtime.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = runtime.app.server.address() as AddressInfo;
    const base = `http://127.0.0.1:${port}`;

    const inFlight = fetch(`${base}/api/v1/test-slow`);
    await slowRequestArrived;
    const stopping = runtime.close();
    await new Promise((resolve) => setTimeout(resolve, 100));

    await expect(fetch(`${base}/api/v1/health`)).rejects.toThrow();
    releaseSlowRequest();
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(response.headers.get('connection')).toBe('close');
    expect(await response.json()).toEqual({ finished: true });
    await stopping;
    await expect(runtime.database.pool.query('select 1')).rejects.toThrow();
  });
});
