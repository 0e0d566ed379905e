import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPIV3_1 } from 'openapi-types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createAccount, signIn } from '../test-support/sign-in.js';
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

  it('documents every error answer of every API operation as JSON in the error shape', async () => {
    const document = (
      await runtime.app.inject({ method: 'GET', url: '/api/openapi.json' })
    ).json<OpenAPIV3_1.Document>();
    for (const [path, item] of Object.entries(document.paths ?? {})) {
      if (!path.startsWith('/api/v1/')) continue;
      for (const method of ['get', 'put', 'post', 'delete', 'patch'] as const) {
        const responses = item?.[method]?.responses;
        if (!responses) continue;
        const statuses = Object.keys(responses);
        // 405, 413, 414, 415, 429 can come from any route, before it runs; so can a 500.
        expect(
          statuses.some((status) => status.startsWith('4')),
          `${method} ${path}`,
        ).toBe(true);
        expect(
          statuses.some((status) => status.startsWith('5')),
          `${method} ${path}`,
        ).toBe(true);
        for (const status of statuses.filter((status) => /^[45]/.test(status))) {
          const content = (responses[status] as OpenAPIV3_1.ResponseObject).content ?? {};
          expect(Object.keys(content), `${method} ${path} ${status}`).toEqual(['application/json']);
        }
      }
    }
    const invoice = document.paths?.['/api/v1/limiter/payments/{paymentId}/invoice']?.get?.responses;
    expect(Object.keys((invoice?.['200'] as OpenAPIV3_1.ResponseObject).content ?? {})).toEqual([
      'application/pdf',
    ]);
  });

  it('states the rules the server enforces', async () => {
    const document = (
      await runtime.app.inject({ method: 'GET', url: '/api/openapi.json' })
    ).json<OpenAPIV3_1.Document>();
    // POST /auth/api-keys takes no body at all: every field is optional.
    const createKey = document.paths?.['/api/v1/auth/api-keys']?.post
      ?.requestBody as OpenAPIV3_1.RequestBodyObject;
    expect(createKey.required).toBe(false);
    // The countries the VAT rate knows, not any two letters.
    const country = (
      document.paths?.['/api/v1/limiter/vat-rate/{country}']?.get?.parameters as
        OpenAPIV3_1.ParameterObject[] | undefined
    )?.find((parameter) => parameter.name === 'country');
    const codes = (country?.schema as OpenAPIV3_1.SchemaObject | undefined)?.enum;
    expect(codes).toContain('FR');
    expect(codes).toContain('fr');
    expect(codes).not.toContain('AA');
    // PUT /profile: at least one of fullName and email.
    const schemas = document.components?.schemas ?? {};
    const profileUpdate = Object.entries(schemas).find(([name]) =>
      name.startsWith('UpdateProfileRequest'),
    )?.[1];
    expect(profileUpdate?.anyOf).toHaveLength(2);
  });

  it('answers the requests the document calls valid, and refuses the ones it calls invalid', async () => {
    const account = await createAccount(runtime);
    const headers = bearer(await signIn(runtime, account.email));
    const profile = await runtime.app.inject({ method: 'PUT', url: '/api/v1/profile', headers, payload: {} });
    expect(profile.statusCode).toBe(400);
    const unknownCountry = await runtime.app.inject({
      method: 'GET',
      url: '/api/v1/limiter/vat-rate/AA',
      headers,
    });
    expect(unknownCountry.statusCode).toBe(400);
    expect(unknownCountry.json<{ code: string }>().code).toBe('VALIDATION_FAILED');
    const key = await runtime.app.inject({ method: 'POST', url: '/api/v1/auth/api-keys', headers });
    expect(key.statusCode).toBe(201);
  });

  it('serves the docs page', async () => {
    const response = await runtime.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('swagger');
  });
});
