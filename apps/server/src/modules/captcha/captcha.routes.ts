import { apiErrorSchema, captchaChallengeSchema, captchaConfigSchema } from '@verbatim/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { CaptchaService } from './captcha.service.js';

export function captchaRoutes(service: CaptchaService): FastifyPluginAsyncZod {
  return (app) => {
    app.get(
      '/auth/captcha',
      {
        schema: {
          tags: ['auth'],
          summary: 'Which captcha the console shows (and the reCAPTCHA site key)',
          response: { 200: captchaConfigSchema, '4xx': apiErrorSchema },
        },
      },
      () => service.publicConfig(),
    );

    app.get(
      '/auth/captcha/challenge',
      {
        // Each challenge costs the client work, not us; the limit only stops someone hoarding them.
        config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
        schema: {
          tags: ['auth'],
          summary: 'A signed ALTCHA proof-of-work challenge, valid for a few minutes',
          response: { 200: captchaChallengeSchema, '4xx': apiErrorSchema },
        },
      },
      async (_request, reply) => {
        // A challenge is single-use: never let a proxy hand the same one to several clients.
        reply.header('cache-control', 'no-store');
        return service.challenge();
      },
    );
    return Promise.resolve();
  };
}
