import type { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import {
  apiErrorSchema,
  createTranscriptJobQuerySchema,
  fileIdParamsSchema,
  sendToCrmRequestSchema,
  type SendToCrmRequest,
  maxUploadBytes,
  rawPcmFormatOf,
  transcriptJobQuerySchema,
  transcriptJobSchema,
} from '@verbatim/contracts';
import type { onRequestAsyncHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

type CreateTranscriptJobQueryOutput = z.output<typeof createTranscriptJobQuerySchema>;
import { publicApiSecurity } from '../api-keys/api-authentication.js';
import {
  rawAudioContentType,
  readAudioRequest,
  requestOptionsInvalid,
} from '../transcripts/audio-request.js';
import { audioRequestBody } from '../transcripts/audio-request-docs.js';
import type { ReceivedAudio } from '../transcripts/audio-upload.js';
import { callerOf } from './files.routes.js';
import type { FilesService } from './files.service.js';
import type { Installation } from '../licences/installation.js';
import { fetchRecording, type RecordingFetchOptions } from './recording-fetch.js';
import type { UploadsService } from './uploads.service.js';

/**
 * The public jobs API: the same submitted files without the console. A job is a submitted file;
 * its id is the file id, its webhook the file's.
 */
export function transcriptJobsRoutes(
  services: { files: FilesService; uploads: UploadsService; installation: Installation | null },
  authenticateApi: onRequestAsyncHookHandler,
  fetching: RecordingFetchOptions,
): FastifyPluginAsyncZod {
  const { files, uploads } = services;
  return async (app) => {
    app.addHook('onRequest', authenticateApi);
    app.addContentTypeParser(rawAudioContentType, (_request, payload, done) => done(null, payload));
    app.addContentTypeParser('application/octet-stream', (_request, payload, done) => done(null, payload));
    await app.register(multipart, { limits: { fileSize: maxUploadBytes, files: 1, fields: 10, parts: 12 } });

    app.post(
      '/transcripts/jobs',
      {
        bodyLimit: maxUploadBytes,
        config: { openApiRequestBody: audioRequestBody('file', createTranscriptJobQuerySchema) },
        schema: {
          tags: ['transcription'],
          summary: 'Queue a transcription job',
          description:
            'Send the recording as the body (audio/*, video/* or application/octet-stream), as multipart/form-data in the field `file`, or give an https `url` to fetch it from (with an empty body). Options come as query parameters (or form fields). Headerless PCM (raw samples) is read when `encoding` and `sampleRate` (and `channels`) say what it is, e.g. `?encoding=s16le&sampleRate=8000`; the format is kept with the job. The answer (202) is the job; poll `GET /transcripts/jobs/{id}` or give a `webhookUrl`, called (signed, Standard Webhooks) when the transcript is done or failed. With `diarize=true` (and optionally `speakers`, or `minSpeakers`/`maxSpeakers`) the transcript tells who speaks when, as in `POST /transcripts` (503 SPEECH_UNAVAILABLE at once without the diarization models). Charged at the HTTP API price once the transcript is done (diarization costs nothing more); a recording the credit cannot cover fails with "Insufficient credit" before any work.',
          security: publicApiSecurity,
          querystring: createTranscriptJobQuerySchema,
          response: { 202: transcriptJobSchema, '4xx': apiErrorSchema },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        // The on-premise edition refuses a new job at once while its licence refuses new work
        // (LICENSE_…, with why and what to do), before taking the recording.
        await services.installation?.licence.assertUsable();
        const hasBody =
          request.isMultipart() ||
          typeof (request.body as Partial<Readable> | undefined)?.pipe === 'function';
        let received: { audio: ReceivedAudio; mediaType: string; fields: Record<string, string | string[]> };
        const sentQuery = Object.fromEntries(new URL(request.url, 'http://localhost').searchParams);
        if (hasBody) {
          const { audio, fields } = await readAudioRequest(request, fetching, 'file');
          const contentType = request.headers['content-type'] ?? '';
          received = {
            audio,
            mediaType: request.isMultipart()
              ? 'application/octet-stream'
              : (contentType.split(';')[0]?.trim() ?? ''),
            fields,
          };
        } else {
          const query = createTranscriptJobQuerySchema.safeParse(sentQuery);
          if (!query.success) throw requestOptionsInvalid(query.error, 'query');
          if (!query.data.url) throw requestOptionsInvalid(missingRecording(), 'query');
          received = { ...(await fetchRecording(query.data.url, fetching)), fields: {} };
        }
        try {
          const options = createTranscriptJobQuerySchema.safeParse({ ...sentQuery, ...received.fields });
          if (!options.success) throw requestOptionsInvalid(options.error, 'query');
          const { language, webhookUrl, fileName, url, diarize, speakers, minSpeakers, maxSpeakers } =
            options.data;
          const crm = crmRequestOfQuery(options.data);
          const name =
            fileName ?? received.audio.fileName ?? (url ? lastSegment(url) : undefined) ?? 'recording';
          const file = await uploads.createFromLocalFile(caller, received.audio.path, {
            fileName: name,
            type: received.mediaType || 'application/octet-stream',
            size: received.audio.bytes,
            languageCode: language,
            callbackUrl: webhookUrl,
            crm,
            diarization: diarize ? { diarize, speakers, minSpeakers, maxSpeakers } : undefined,
            rawPcm: rawPcmFormatOf(options.data),
          });
          return await reply.code(202).send(await files.job(caller.accountId, file.id));
        } finally {
          await received.audio.remove();
        }
      },
    );

    app.get(
      '/transcripts/jobs/:fileId',
      {
        schema: {
          tags: ['transcription'],
          summary: 'A transcription job: its status, progress and, once done, its transcript',
          description:
            'format=json (default) answers the job; text, srt or vtt answer the transcript itself once done (409 TRANSCRIPT_NOT_READY before).',
          security: publicApiSecurity,
          params: fileIdParamsSchema,
          querystring: transcriptJobQuerySchema,
          produces: ['application/json', 'text/plain', 'application/x-subrip', 'text/vtt'],
          response: { 200: transcriptJobSchema.or(z.string()), '4xx': apiErrorSchema },
        },
      },
      async (request, reply) => {
        const { accountId } = callerOf(request);
        const { format } = request.query;
        if (format === 'json') return files.job(accountId, request.params.fileId);
        const formatted = await files.formatted(accountId, request.params.fileId, format);
        return reply.type(formatted.contentType).send(formatted.body);
      },
    );

    app.delete(
      '/transcripts/jobs/:fileId',
      {
        schema: {
          tags: ['transcription'],
          summary: 'Delete a job: its recording and transcript',
          security: publicApiSecurity,
          params: fileIdParamsSchema,
          response: { 204: z.null(), '4xx': apiErrorSchema },
        },
      },
      async (request, reply) => {
        await files.delete(callerOf(request).accountId, request.params.fileId);
        return reply.code(204).send(null);
      },
    );
  };
}

/** The flat `crm*` options as a SendToCrmRequest; undefined when none is given. */
function crmRequestOfQuery(query: CreateTranscriptJobQueryOutput): SendToCrmRequest | undefined {
  const { crmIntegrationId, crmContactId, crmAs, crmTaskSubject, crmTaskDueAt } = query;
  if ([crmIntegrationId, crmContactId, crmAs, crmTaskSubject, crmTaskDueAt].every((v) => v === undefined)) {
    return undefined;
  }
  const parsed = sendToCrmRequestSchema.safeParse({
    integrationId: crmIntegrationId,
    contactId: crmContactId,
    as: crmAs,
    ...(crmTaskSubject !== undefined || crmTaskDueAt !== undefined
      ? { task: { subject: crmTaskSubject, dueAt: crmTaskDueAt } }
      : {}),
  });
  if (!parsed.success) throw requestOptionsInvalid(parsed.error, 'query');
  return parsed.data;
}

function missingRecording(): z.ZodError {
  return new z.ZodError([
    {
      code: 'custom',
      path: ['url'],
      message: 'Send the recording as the body, as the multipart field "file", or give its https url.',
      input: undefined,
    },
  ]);
}

function lastSegment(url: string): string | undefined {
  const segment = new URL(url).pathname.split('/').filter(Boolean).pop();
  return segment ? decodeURIComponent(segment).slice(0, 255) : undefined;
}
