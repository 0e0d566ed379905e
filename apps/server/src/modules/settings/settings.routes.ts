import { apiErrorSchema, settingsSchema, updateSettingsRequestSchema } from '@verbatim/contracts';
import type { onRequestAsyncHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { signedInAccount } from '../../http/authenticate.js';
import { requestContext } from '../../http/request-context.js';
import { publicApiSecurity } from '../api-keys/api-authentication.js';
import type { SettingsService } from './settings.service.js';

const errors = { '4xx': apiErrorSchema };

/** Spec §7 GET and PUT /settings: anyone may read them with a key; only the console changes them. */
export function settingsRoutes(
  service: SettingsService,
  hooks: { authenticateApi: onRequestAsyncHookHandler; consoleSession: onRequestAsyncHookHandler },
): FastifyPluginAsyncZod {
  return (app) => {
    app.get(
      '/settings',
      {
        onRequest: hooks.authenticateApi,
        schema: {
          tags: ['settings'],
          summary: "The account's settings, with its prepaid credit (thirdPartyApi.credits, in cents)",
          security: publicApiSecurity,
          response: { 200: settingsSchema, ...errors },
        },
      },
      (request) => service.get(signedInAccount(request)),
    );

    app.put(
      '/settings',
      {
        onRequest: hooks.consoleSession,
        schema: {
          tags: ['settings'],
          summary: 'Change the interface language and the default transcription language',
          description:
            'Fields left out keep their value; read-only ones (calls, thirdPartyApi) are ignored, so the answer of GET may be sent back changed.',
          security: [{ consoleSession: [] }],
          body: updateSettingsRequestSchema,
          response: { 200: settingsSchema, ...errors },
        },
      },
      (request) => service.update(signedInAccount(request), request.body, requestContext(request)),
    );
    return Promise.resolve();
  };
}
