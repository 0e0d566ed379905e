import {
  apiErrorSchema,
  externalAuthorizationQuerySchema,
  externalAuthorizationSchema,
  externalProvidersSchema,
} from '@verbatim/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ExternalSignInService } from './external-signin.service.js';

export function externalSignInRoutes(service: ExternalSignInService): FastifyPluginAsyncZod {
  return (app) => {
    app.get(
      '/auth/external-providers',
      {
        schema: {
          tags: ['auth'],
          summary: 'The third-party account providers offered for sign-in',
          response: { 200: externalProvidersSchema },
        },
      },
      () => service.providers(),
    );
    app.get(
      '/auth/external-providers/:provider/authorization-url',
      {
        schema: {
          tags: ['auth'],
          summary:
            'Where to send the browser to sign in with the provider; it comes back to /auth/login/external',
          params: z.object({ provider: z.string().max(32) }),
          querystring: externalAuthorizationQuerySchema,
          response: { 200: externalAuthorizationSchema, '4xx': apiErrorSchema },
        },
      },
      async (request) => ({
        url: await service.authorizationUrl(
          request.params.provider,
          request.query.state,
          request.query.codeChallenge,
        ),
      }),
    );
    return Promise.resolve();
  };
}
