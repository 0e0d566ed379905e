import {
  apiErrorSchema,
  changePasswordRequestSchema,
  profileSchema,
  updateProfileRequestSchema,
  welcomeMessageRequestSchema,
} from '@verbatim/contracts';
import type { onRequestAsyncHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { signedInAccount } from '../../http/authenticate.js';
import { requestContext } from '../../http/request-context.js';
import type { ProfileService } from './profile.service.js';

const errors = { '4xx': apiErrorSchema };

export function profileRoutes(
  service: ProfileService,
  authenticate: onRequestAsyncHookHandler,
): FastifyPluginAsyncZod {
  return (app) => {
    app.addHook('onRequest', authenticate);

    app.get(
      '/profile',
      {
        schema: {
          tags: ['profile'],
          summary: 'The signed-in account',
          response: { 200: profileSchema, ...errors },
        },
      },
      (request) => service.toProfile(signedInAccount(request)),
    );

    app.put(
      '/profile',
      {
        schema: {
          tags: ['profile'],
          summary: 'Change the full name (and, after confirmation by e-mail, the address)',
          body: updateProfileRequestSchema,
          response: { 200: profileSchema, ...errors },
        },
      },
      async (request) => {
        let account = signedInAccount(request);
        if (request.body.fullName !== null) {
          account = await service.setFullName(account, request.body.fullName, requestContext(request));
        }
        if (request.body.email !== null) {
          await service.requestEmailChange(account, request.body.email, requestContext(request));
        }
        return service.toProfile(account);
      },
    );

    app.put(
      '/profile/welcome',
      {
        schema: {
          tags: ['profile'],
          summary: 'Show or hide the welcome message of the Getting started page',
          body: welcomeMessageRequestSchema,
          response: { 200: profileSchema, ...errors },
        },
      },
      async (request) =>
        service.toProfile(
          await service.setWelcomeMessage(signedInAccount(request), request.body.showWelcomeMsg),
        ),
    );

    app.post(
      '/profile/password',
      {
        config: { rateLimit: { max: 10, timeWindow: 15 * 60_000 } },
        schema: {
          tags: ['profile'],
          summary: 'Change the password, giving the current one',
          body: changePasswordRequestSchema,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await service.changePassword(signedInAccount(request), request.body, {
          ...requestContext(request),
          ...(request.grantId ? { grantId: request.grantId } : {}),
        });
        return reply.status(204).send(null);
      },
    );
    return Promise.resolve();
  };
}
