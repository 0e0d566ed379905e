import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { acceptsNoBody, completeApiOperations } from './openapi-contract.js';
import { stateTextRules } from './openapi-text-rules.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The OpenAPI requestBody of a route whose body is not JSON (raw audio, multipart with a
     * streamed file): such bodies are read by the handler, so no zod schema validates them, but
     * the document still states exactly what the route accepts.
     */
    openApiRequestBody?: Record<string, unknown>;
  }
}

/** The OpenAPI document, generated from the routes' zod schemas, and its docs page. */
export async function registerOpenApi(app: FastifyInstance, info: { title: string; version: string }) {
  const documentedBodies = new Map<string, Record<string, unknown>>();
  const optionalBodies = new Set<string>();
  app.addHook('onRoute', (route) => {
    if (acceptsNoBody(route.schema?.body))
      for (const method of [route.method].flat()) optionalBodies.add(`${method.toLowerCase()} ${route.url}`);
    const body = route.config?.openApiRequestBody;
    if (!body) return;
    for (const method of [route.method].flat())
      documentedBodies.set(`${method.toLowerCase()} ${route.url}`, body);
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: `${info.title} API`,
        version: info.version,
        description: 'Speech-to-text API and the calls of the customer console.',
      },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          consoleSession: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'An access token of the console (OpenID Connect, scope api).',
          },
          apiKeyBearer: {
            type: 'http',
            scheme: 'bearer',
            description: 'An API key (vbt_live_…) as "Authorization: Bearer <key>".',
          },
          apiKeyHeader: {
            type: 'apiKey',
            in: 'header',
            name: 'x-api-key',
            description: 'An API key (vbt_live_…) in the x-api-key header.',
          },
          licenceKey: {
            type: 'apiKey',
            in: 'header',
            name: 'authorization',
            description: 'An on-premise licence key (vbl1_…) as "Authorization: License <key>".',
          },
        },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: (document) => {
      const transformed = jsonSchemaTransformObject(document) as {
        paths?: Record<string, Record<string, { requestBody?: unknown }>>;
      };
      for (const [key, body] of documentedBodies) {
        const [method = '', url = ''] = key.split(' ');
        const openApiPath = url.replace(/:(\w+)/g, '{$1}');
        const operation = transformed.paths?.[openApiPath]?.[method];
        if (operation) operation.requestBody = body;
      }
      completeApiOperations(transformed, optionalBodies);
      stateTextRules(transformed);
      return transformed;
    },
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    // swagger-ui sets inline styles while it renders; everything else stays same-origin only.
    transformStaticCSP: () =>
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
      "connect-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'",
    theme: { title: `${info.title} API reference` },
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, () => app.swagger());
}
