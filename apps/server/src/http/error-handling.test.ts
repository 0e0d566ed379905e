import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { apiErrorSchema } from '@verbatim/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { startTestRuntime, type TestRuntime } from '../test-support/test-runtime.js';
import { toAppError } from './error-handler.js';

// Routes that exist only in this test, to drive the error handler through every kind of failure.
const probeRoutes: FastifyPluginAsyncZod = (app) => {
  app.post(
    '/echo',
    {
      schema: {
        body: z.object({ name: z.string().min(3), count: z.number().int() }),
        querystring: z.object({}),
      },
    },
    (request) => request.body,
  );
  app.get('/explode', () => {
    throw new Error('connection to db-internal-7 failed: password=hunter2');
  });
  app.get('/items/:id', { schema: { params: z.object({ id: z.string().regex(/^itm_/) }) } }, (request) => ({
    id: request.params.id,
  }));
  return Promise.resolve();
};

describe('errors at the HTTP boundary', () => {
  let runtime: TestRuntime;

  beforeAll(async () => {
    runtime = await startTestRuntime({ env: { BODY_LIMIT_BYTES: '1024' } });
    await runtime.app.register(probeRoutes, { prefix: '/api/v1/test-probe' });
  });
  afterAll(() => runtime.close());

  it('answers malformed JSON with 400 MALFORMED_JSON', async () => {
    const response = await runtime.app.inject({
      method: 'POST',
      url: '/api/v1/test-probe/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": "abc",',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ code: 'MALFORMED_JSON', message: 'The body is not valid JSON.' });
  });

  it('answers an empty JSON body with 400 MALFORMED_JSON', async () => {
    const response = await runtime.app.inject({
      method: 'POST',
      url: '/api/v1/test-probe/echo',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ code: string }>().code).toBe('MALFORMED_JSON');
  });

  it('answers schema violations with 400 VALIDATION_FAILED and where each problem is', async () => {
    const response = await runtime.app.inject({
      method: 'POST',
      url: '/api/v1/test-probe/echo',
      payload: { name: 'ab', count: 1.5 },
    });
    expect(response.statusCode).toBe(400);
    const body = apiErrorSchema.parse(response.json());
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.details?.map((issue) => [issue.location, issue.path.join('.')])).toEqual([
      ['body', 'name'],
      ['body', 'count'],
    ]);
  });

  it('reports bad path parameters as params', async () => {
    const response = await runtime.app.inject({ method: 'GET', url: '/api/v1/test-probe/items/nope' });
    expect(response.statusCode).toBe(400);
    expect(apiErrorSchema.parse(response.json()).details?.[0]?.location).toBe('params');
  });

  it('answers oversized bodies with 413 PAYLOAD_TOO_LARGE', async () => {
    const response = await runtime.app.inject({
      method: 'POST',
      url: '/api/v1/test-probe/echo',
      payload: { name: 'x'.repeat(4096), count: 1 },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json<{ code: string }>().code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers content types other than JSON with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    for (const contentType of ['text/plain', 'application/xml', 'application/x-www-form-urlencoded']) {
      const response = await runtime.app.inject({
        method: 'POST',
        url: '/api/v1/test-probe/echo',
        headers: { 'content-type': contentType },
        payload: 'name=abc',
      });
      expect(response.statusCode, contentType).toBe(415);
      expect(response.json<{ code: string }>().code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
  });

  it('answers unknown API routes with 404 ROUTE_NOT_FOUND as JSON', async () => {
    const response = await runtime.app.inject({ method: 'DELETE', url: '/api/v1/no-such-thing?x=1' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/application\/json/);
    expect(response.json()).toEqual({
      code: 'ROUTE_NOT_FOUND',
      message: 'No route DELETE /api/v1/no-such-thing.',
    });
  });

  it('answers a method the path does not have with 405 METHOD_NOT_ALLOWED and an Allow header', async () => {
    for (const method of ['TRACE', 'QUERY', 'PATCH', 'PUT', 'OPTIONS'] as const) {
      const response = await runtime.app.inject({ method, url: '/api/v1/test-probe/items/itm_1' });
      expect(response.statusCode, method).toBe(405);
      expect(response.headers.allow, method).toBe('GET, HEAD');
      expect(apiErrorSchema.parse(response.json()).code).toBe('METHOD_NOT_ALLOWED');
    }
    const post = await runtime.app.inject({
      method: 'DELETE',
      url: '/api/v1/test-probe/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{',
    });
    expect(post.statusCode).toBe(405);
    expect(post.headers.allow).toBe('POST');
  });

  it('answers a path parameter longer than any route takes with 414 URI_TOO_LONG', async () => {
    const response = await runtime.app.inject({
      method: 'GET',
      url: `/api/v1/test-probe/items/itm_${'x'.repeat(3000)}`,
    });
    expect(response.statusCode).toBe(414);
    expect(response.headers['x-request-id']).toBeDefined();
    expect(apiErrorSchema.parse(response.json()).code).toBe('URI_TOO_LONG');
  });

  it('answers a malformed percent-encoding in the path with 400 BAD_REQUEST', async () => {
    const response = await runtime.app.inject({
      method: 'GET',
      url: '/api/v1/test-probe/items/itm_%E0%A4%A',
    });
    expect(response.statusCode).toBe(400);
    expect(apiErrorSchema.parse(response.json()).code).toBe('BAD_REQUEST');
  });

  it('answers headers larger than Node.js reads with 431 HEADERS_TOO_LARGE', async () => {
    const address = await runtime.app.listen({ port: 0, host: '127.0.0.1' });
    const response = await fetch(`${address}/api/v1/test-probe/items/itm_1?q=${'x'.repeat(20_000)}`);
    expect(response.status).toBe(431);
    expect(apiErrorSchema.parse(await response.json()).code).toBe('HEADERS_TOO_LARGE');
  });

  it('answers the identity provider errors of its API aliases in the error shape', async () => {
    const device = await runtime.app.inject({ method: 'POST', url: '/api/v1/oauth/device' });
    expect(device.statusCode).toBe(400);
    expect(apiErrorSchema.parse(device.json()).code).toBe('BAD_REQUEST');
    const token = await runtime.app.inject({
      method: 'POST',
      url: '/api/v1/auth/profile/verify',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'client_id=verbatim-console&grant_type=refresh_token&refresh_token=nope',
    });
    expect(token.statusCode).toBe(400);
    expect(apiErrorSchema.parse(token.json()).code).toBe('BAD_TOKEN');
  });

  it('hides the internals of a 5xx and logs them under the error id it returns', async () => {
    const response = await runtime.app.inject({ method: 'GET', url: '/api/v1/test-probe/explode' });
    expect(response.statusCode).toBe(500);
    const body = apiErrorSchema.parse(response.json());
    expect(body.code).toBe('INTERNAL_ERROR');
    expect(response.body).not.toContain('hunter2');
    expect(response.body).not.toContain('db-internal');
    expect(body.errorId).toBe(response.headers['x-request-id']);
    const logged = runtime.logs.find((line) => line.errorId === body.errorId);
    expect(JSON.stringify(logged)).toContain('db-internal-7');
  });

  it('maps the multipart parser errors of an unreadable body to 400 BAD_REQUEST', () => {
    for (const message of [
      'Multipart: Boundary not found',
      'The needle cannot have a length bigger than 256.',
      'Unexpected end of multipart data',
    ])
      expect(toAppError(new Error(message))?.code, message).toBe('BAD_REQUEST');
    expect(toAppError(new Error('connection refused'))).toBeUndefined();
  });
});
