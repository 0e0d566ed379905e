import {
  apiErrorSchema,
  interactionDetailsSchema,
  interactionExternalLoginRequestSchema,
  interactionLoginRequestSchema,
  interactionRedirectSchema,
} from '@verbatim/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requestContext } from '../../http/request-context.js';
import type { InteractionsService } from './interactions.service.js';
import type { SignInRateLimit } from './sign-in-rate-limit.js';

const params = z.object({ uid: z.string().min(1).max(128) });
const errors = { '4xx': apiErrorSchema };

/** The sign-in steps spend the client address's sign-in budget (`signInLimit`). */
export function interactionRoutes(
  service: InteractionsService,
  signInLimit: SignInRateLimit,
): FastifyPluginAsyncZod {
  return (app) => {
    app.get(
      '/auth/interactions/:uid/details',
      {
        schema: {
          tags: ['auth'],
          summary: 'What a step of the sign-in flow asks for',
          params,
          response: { 200: interactionDetailsSchema, ...errors },
        },
      },
      (request) => service.details(request.params.uid),
    );
    app.post(
      '/auth/interactions/:uid/login',
      {
        onRequest: signInLimit,
        schema: {
          tags: ['auth'],
          summary: 'Sign in during the authorization-code flow; answers where to continue',
          params,
          body: interactionLoginRequestSchema,
          response: { 200: interactionRedirectSchema, ...errors },
        },
      },
      (request) => service.login(request.params.uid, request.body, requestContext(request)),
    );
    app.post(
      '/auth/interactions/:uid/login/external',
      {
        onRequest: signInLimit,
        schema: {
          tags: ['auth'],
          summary:
            'Sign in during the authorization-code flow with the code Google or GitHub sent back; answers where to continue',
          params,
          body: interactionExternalLoginRequestSchema,
          response: { 200: interactionRedirectSchema, ...errors },
        },
      },
      (request) => service.loginExternally(request.params.uid, request.body, requestContext(request)),
    );
    app.post(
      '/auth/interactions/:uid/consent',
      {
        schema: {
          tags: ['auth'],
          summary: 'Allow the application what it asked for; answers where to continue',
          params,
          response: { 200: interactionRedirectSchema, ...errors },
        },
      },
      (request) => service.consent(request.params.uid),
    );
    app.post(
      '/auth/interactions/:uid/abort',
      {
        schema: {
          tags: ['auth'],
          summary: 'Decline; the application is told access was denied',
          params,
          response: { 200: interactionRedirectSchema, ...errors },
        },
      },
      (request) => service.abort(request.params.uid),
    );
    return Promise.resolve();
  };
}
