import {
  acceptedResponseSchema,
  apiErrorSchema,
  registerRequestSchema,
  registerResponseSchema,
  resendVerificationRequestSchema,
} from '@verbatim/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requestContext } from '../../http/request-context.js';
import type { RegistrationService } from './registration.service.js';

/** `registrationsPerHour`: sign-ups one client address may make in an hour (REGISTRATIONS_PER_HOUR_PER_IP). */
export function registrationRoutes(
  service: RegistrationService,
  registrationsPerHour: number,
): FastifyPluginAsyncZod {
  return (app) => {
    app.post(
      '/auth/register',
      {
        config: { rateLimit: { max: registrationsPerHour, timeWindow: '1 hour' } },
        schema: {
          tags: ['auth'],
          summary: 'Sign up with e-mail and password; sends the verification e-mail',
          body: registerRequestSchema,
          response: { 201: registerResponseSchema, '4xx': apiErrorSchema },
        },
      },
      async (request, reply) => {
        const user = await service.register(request.body, requestContext(request));
        return reply.status(201).send({ user });
      },
    );

    app.post(
      '/auth/register/resend',
      {
        config: { rateLimit: { max: 5, timeWindow: '15 minutes' } },
        schema: {
          tags: ['auth'],
          summary:
            'Sends the verification e-mail again; answers the same whether the address is known or not',
          body: resendVerificationRequestSchema,
          response: { 202: acceptedResponseSchema, '4xx': apiErrorSchema },
        },
      },
      async (request, reply) => {
        await service.resendVerification(request.body.email);
        return reply.status(202).send({ accepted: true });
      },
    );
    return Promise.resolve();
  };
}
