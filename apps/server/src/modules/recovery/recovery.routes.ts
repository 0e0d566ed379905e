import {
  acceptedResponseSchema,
  apiErrorSchema,
  recoveryPasswordRequestSchema,
  recoveryPasswordResponseSchema,
  recoveryRequestSchema,
} from '@verbatim/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requestContext } from '../../http/request-context.js';
import type { RecoveryService } from './recovery.service.js';

export function recoveryRoutes(service: RecoveryService): FastifyPluginAsyncZod {
  return (app) => {
    app.post(
      '/auth/recovery',
      {
        config: { rateLimit: { max: 5, timeWindow: '15 minutes' } },
        schema: {
          tags: ['auth'],
          summary: 'E-mails a password recovery link; answers the same whether the address is known or not',
          body: recoveryRequestSchema,
          response: { 202: acceptedResponseSchema, '4xx': apiErrorSchema },
        },
      },
      async (request, reply) => {
        await service.requestRecovery(request.body, requestContext(request));
        return reply.status(202).send({ accepted: true });
      },
    );

    app.post(
      '/auth/recovery/password',
      {
        config: { rateLimit: { max: 10, timeWindow: '15 minutes' } },
        schema: {
          tags: ['auth'],
          summary: 'Sets a new password with the token from a recovery link',
          body: recoveryPasswordRequestSchema,
          response: { 200: recoveryPasswordResponseSchema, '4xx': apiErrorSchema },
        },
      },
      (request) => service.recoverPassword(request.body, requestContext(request)),
    );
    return Promise.resolve();
  };
}
