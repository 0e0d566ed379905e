import { apiErrorSchema, consoleConfigSchema, healthSchema, readinessSchema } from '@verbatim/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { SystemService } from './system.service.js';

export function systemRoutes(service: SystemService): FastifyPluginAsyncZod {
  return (app) => {
    app.get(
      '/health',
      {
        // Probes poll these; they must never be rate limited away.
        config: { rateLimit: false },
        schema: {
          tags: ['system'],
          summary: 'Liveness: the process is up and serving',
          response: { 200: healthSchema },
        },
      },
      () => service.health(),
    );

    app.get(
      '/ready',
      {
        config: { rateLimit: false },
        schema: {
          tags: ['system'],
          summary: 'Readiness: the database is reachable and fully migrated',
          response: { 200: readinessSchema, 503: readinessSchema, '5xx': apiErrorSchema },
        },
      },
      async (_request, reply) => {
        const readiness = await service.readiness();
        return reply.status(readiness.status === 'ready' ? 200 : 503).send(readiness);
      },
    );

    app.get(
      '/console-config',
      {
        schema: {
          tags: ['system'],
          summary: 'What the console needs before sign-in: product name, version and public links',
          response: { 200: consoleConfigSchema, '4xx': apiErrorSchema },
        },
      },
      () => service.consoleConfig(),
    );
    return Promise.resolve();
  };
}
