import {
  apiErrorSchema,
  apiKeyIdParamsSchema,
  apiKeyListSchema,
  createApiKeyRequestSchema,
  createdApiKeySchema,
} from '@verbatim/contracts';
import type { onRequestAsyncHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { signedInAccount } from '../../http/authenticate.js';
import { requestContext } from '../../http/request-context.js';
import type { ApiKeysService } from './api-keys.service.js';

const errors = { '4xx': apiErrorSchema };
const security = [{ consoleSession: [] }];

/** Spec §7 /auth/api-keys: managed from a console session only (an API key cannot mint keys). */
export function apiKeyRoutes(
  service: ApiKeysService,
  consoleSession: onRequestAsyncHookHandler,
): FastifyPluginAsyncZod {
  return (app) => {
    app.addHook('onRequest', consoleSession);

    app.get(
      '/auth/api-keys',
      {
        schema: {
          tags: ['api-keys'],
          summary: 'The API keys that are not revoked (active ones, and expired ones marked so)',
          security,
          response: { 200: apiKeyListSchema, ...errors },
        },
      },
      (request) => service.list(signedInAccount(request)),
    );

    app.post(
      '/auth/api-keys',
      {
        // Generating keys is rare; a burst is a script gone wrong.
        config: { rateLimit: { max: 30, timeWindow: 60 * 60_000 } },
        schema: {
          tags: ['api-keys'],
          summary: 'Generate an API key; its secret (apiKey) is in this answer only',
          description:
            'Every field is optional: a name, an expiry (ISO 8601 date-time in the future) and a monthly spending cap in cents.',
          security,
          body: createApiKeyRequestSchema.nullish(),
          response: { 201: createdApiKeySchema, ...errors },
        },
      },
      async (request, reply) => {
        const input = request.body ?? createApiKeyRequestSchema.parse({});
        const created = await service.create(signedInAccount(request), input, requestContext(request));
        return reply.status(201).header('cache-control', 'no-store').send(created);
      },
    );

    app.delete(
      '/auth/api-keys/:id',
      {
        schema: {
          tags: ['api-keys'],
          summary: 'Revoke an API key, at once',
          security,
          params: apiKeyIdParamsSchema,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await service.revoke(signedInAccount(request), request.params.id, requestContext(request));
        return reply.status(204).send(null);
      },
    );
    return Promise.resolve();
  };
}
