import {
  apiErrorSchema,
  settingsLocaleQuerySchema,
  settingsSchema,
  transcriptDeletionOptionSchema,
  transcriptionLanguageEntrySchema,
  updateRecordingExtensionRequestSchema,
  updateSettingsRequestSchema,
} from '@verbatim/contracts';
import type { onRequestAsyncHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { signedInAccount } from '../../http/authenticate.js';
import { requestContext } from '../../http/request-context.js';
import { publicApiSecurity } from '../api-keys/api-authentication.js';
import type { SettingsService } from './settings.service.js';

const errors = { '4xx': apiErrorSchema };

/**
 * Spec §7 `/settings` calls: anyone may read them with a key (the credit, the languages a
 * transcription may ask for); only the console changes them.
 */
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
          summary:
            'Change the interface language, the default transcription language and when transcripts are deleted',
          description:
            'Fields left out keep their value; read-only ones (calls, thirdPartyApi) and recordingExtension (PUT /settings/recording-extension) are ignored, so the answer of GET may be sent back changed. `transcripts.language` must be one of GET /settings/transcript-languages; `transcripts.deletionAfterDays` one of GET /settings/transcript-deletion (null: never); `transcripts.diarize` whether uploads tell who speaks when unless they say otherwise.',
          security: [{ consoleSession: [] }],
          body: updateSettingsRequestSchema,
          response: { 200: settingsSchema, ...errors },
        },
      },
      (request) => service.update(signedInAccount(request), request.body, requestContext(request)),
    );

    app.put(
      '/settings/recording-extension',
      {
        onRequest: hooks.consoleSession,
        schema: {
          tags: ['settings'],
          summary: 'Choose the audio format in which kept live-session recordings are stored',
          security: [{ consoleSession: [] }],
          body: updateRecordingExtensionRequestSchema,
          response: { 200: settingsSchema, ...errors },
        },
      },
      (request) =>
        service.updateRecordingExtension(
          signedInAccount(request),
          request.body.extension,
          requestContext(request),
        ),
    );

    app.get(
      '/settings/transcript-languages',
      {
        onRequest: hooks.authenticateApi,
        schema: {
          tags: ['settings'],
          summary: 'Languages the installed speech models transcribe, and which of them work live',
          description:
            "Named in `locale`, by default the account's interface language. French (Medical) (`fr-medical`) follows French whenever a model can serve French.",
          security: publicApiSecurity,
          querystring: settingsLocaleQuerySchema,
          response: { 200: z.array(transcriptionLanguageEntrySchema), ...errors },
        },
      },
      (request) => service.transcriptLanguages(signedInAccount(request), request.query.locale),
    );

    app.get(
      '/settings/transcript-deletion',
      {
        onRequest: hooks.authenticateApi,
        schema: {
          tags: ['settings'],
          summary: 'The periods after which transcripts and recordings may be deleted automatically',
          description:
            "`days: null` is never. Named in `locale`, by default the account's interface language.",
          security: publicApiSecurity,
          querystring: settingsLocaleQuerySchema,
          response: { 200: z.array(transcriptDeletionOptionSchema), ...errors },
        },
      },
      (request) => service.deletionOptions(signedInAccount(request), request.query.locale),
    );
    return Promise.resolve();
  };
}
