import { apiErrorSchema, usagesSchema } from '@verbatim/contracts';
import type { onRequestAsyncHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { signedInAccount } from '../../http/authenticate.js';
import { publicApiSecurity } from '../api-keys/api-authentication.js';
import type { CreditsService } from './credits.service.js';

/** Spec §7 /limiter/usages, for the console and API key holders alike. */
export function creditsRoutes(
  service: CreditsService,
  authenticateApi: onRequestAsyncHookHandler,
): FastifyPluginAsyncZod {
  return (app) => {
    app.addHook('onRequest', authenticateApi);

    app.get(
      '/limiter/usages',
      {
        schema: {
          tags: ['credits'],
          summary: 'Usage per product since the account was opened, with the price per hour of each',
          description:
            'Amounts are in cents, rounded up; prices in millionths of a dollar per hour of audio, charged per started second.',
          security: publicApiSecurity,
          response: { 200: usagesSchema, '4xx': apiErrorSchema },
        },
      },
      (request) => service.usages(signedInAccount(request).id),
    );
    return Promise.resolve();
  };
}
