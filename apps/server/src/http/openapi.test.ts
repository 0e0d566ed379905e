import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPIV3_1 } from 'openapi-types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../test-support/test-runtime.js';
import { routesOf, type RouteSummary } from './route-list.js';

describe('OpenAPI document', () => {
  let runtime: TestRuntime;
  let routes: readonly RouteSummary[] = [];

  beforeAll(async () => {
    runtime = await startTestRuntime();
    await runtime.app.ready();
    routes = routesOf(runtime.app);
  });
  afterAll(() => runtime.close());

  it('is served at /api/openapi.json and is a valid OpenAPI 3 document', async () => {
    const response = await runtime.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json<OpenAPIV3_1.Document>();
    expect(document.openapi).toMatch(/^3\./);
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeTruthy();
  });

  it('documents every /api/v1 route with its responses', async () => {
    const document = (
      await runtime.app.inject({ method: 'GET', url: '/api/openapi.json' })
    ).json<OpenAPIV3_1.Document>();
    const apiRoutes = routes.filter((route) => route.url.startsWith('/api/v1/') && route.method !== 'HEAD');
    expect(apiRoutes.every((route) => !route.hidden)).toBe(true);
    expect(apiRoutes.length).toBeGreaterThanOrEqual(3);
    for (const route of apiRoutes) {
      const openApiPath = route.url.replace(/:(\w+)/g, '{$1}');
      const operation =
        document.paths?.[openApiPath]?.[route.method.toLowerCase() as OpenAPIV3_1.HttpMethods];
      expect(operation, `${route.method} ${route.url}`).toBeDefined();
      const statuses = Object.keys(operation?.responses ?? {});
      // Its success answer: 200, or 201/202 where a route creates or accepts something (101: the live
      // socket's upgrade; 302: an OAuth provider's redirect back, sent on to the console).
      expect(
        statuses.some((status) => /^(2\d\d|101|302)$/.test(status)),
        `${route.method} ${route.url}: ${statuses.join(', ')}`,
      ).toBe(true);
    }
  });

  it('serves the docs page', async () => {
    const response = await runtime.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('swagger');
  });
});
