import type { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import {
  apiErrorSchema,
  createRecordingRequestSchema,
  downloadQuerySchema,
  fileIdParamsSchema,
  filesPageQuerySchema,
  filesPageSchema,
  maxUploadBytes,
  recordingUploadStateSchema,
  submittedFileSchema,
  uploadChunkHeadersSchema,
  uploadInProgressSchema,
  uploadOffsetMismatchSchema,
  webhookAttemptsSchema,
  webhookResendSchema,
  webhookSigningSecretSchema,
} from '@verbatim/contracts';
import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors/app-error.js';
import { signedInAccount } from '../../http/authenticate.js';
import { publicApiSecurity } from '../api-keys/api-authentication.js';
import type { FilesService } from './files.service.js';
import {
  UploadInProgress,
  UploadOffsetMismatch,
  type FileCaller,
  type UploadsService,
} from './uploads.service.js';
import { uploadLease } from './upload-lease.js';
import type { WebhooksService } from './webhooks.service.js';

export interface FilesRouteServices {
  files: FilesService;
  uploads: UploadsService;
  webhooks: WebhooksService;
}

export function callerOf(request: FastifyRequest): FileCaller {
  return { accountId: signedInAccount(request).id, apiKeyId: request.apiKey?.id ?? null };
}

/** Room for the multipart envelope around a chunk. */
const multipartOverheadBytes = 1024 * 1024;

/** `PUT /media/{fileId}` takes a body, always: the chunk, in one of these two forms (else 415). */
const chunkRequestBody = {
  required: true,
  content: {
    'multipart/form-data': {
      schema: {
        type: 'object',
        required: ['theFile'],
        properties: { theFile: { type: 'string', format: 'binary', description: 'The chunk.' } },
      },
    },
    'application/octet-stream': { schema: { type: 'string', format: 'binary' } },
  },
};

/**
 * Submitted files (spec §7): resumable upload (`POST /media/recordings`, `PUT /media/{fileId}`),
 * the files table (`/files/third-party`), webhook attempts, resend and signing secret, and
 * `GET /transcripts/download`. Every file route answers 404 for a file of another account.
 */
export function filesRoutes(
  services: FilesRouteServices,
  hooks: { authenticateApi: onRequestAsyncHookHandler; consoleSession: onRequestAsyncHookHandler },
): FastifyPluginAsyncZod {
  const { files, uploads, webhooks } = services;
  return async (app) => {
    app.addHook('onRequest', hooks.authenticateApi);
    // A chunk may also come as the raw body; it streams to storage, never whole in memory.
    app.addContentTypeParser('application/octet-stream', (_request, payload, done) => done(null, payload));
    await app.register(multipart, {
      limits: { fileSize: maxUploadBytes, files: 1, fields: 10, parts: 12 },
    });

    app.post(
      '/media/recordings',
      {
        schema: {
          tags: ['files'],
          summary: 'Start a resumable upload',
          description:
            'Creates the placeholder of a recording from its metadata and answers its id and the bytes the server holds (0, or more when the same file — same name, size and SHA-1 — was begun before: resume from there). Refused with FILE_ALREADY_EXISTS when the same content was uploaded already, STORAGE_LIMIT_REACHED past the account’s storage quota.',
          security: publicApiSecurity,
          body: createRecordingRequestSchema,
          response: { 200: recordingUploadStateSchema, '4xx': apiErrorSchema },
        },
      },
      (request) => uploads.create(callerOf(request), request.body),
    );

    app.get(
      '/media/:fileId',
      {
        schema: {
          tags: ['files'],
          summary: 'Where an upload stands: the bytes the server holds',
          security: publicApiSecurity,
          params: fileIdParamsSchema,
          response: { 200: recordingUploadStateSchema, '4xx': apiErrorSchema },
        },
      },
      (request) => uploads.state(callerOf(request), request.params.fileId),
    );

    app.put(
      '/media/:fileId',
      {
        bodyLimit: maxUploadBytes + multipartOverheadBytes,
        config: { openApiRequestBody: chunkRequestBody },
        schema: {
          tags: ['files'],
          summary: 'Upload a chunk of a recording',
          description: `Appends the chunk (multipart/form-data field \`theFile\`, or an application/octet-stream body) at the byte given by \`x-start-byte\`, which must be the size the server holds: otherwise 409 UPLOAD_OFFSET_MISMATCH answers that size. While another request is writing the same upload, 409 UPLOAD_IN_PROGRESS answers when to try again (Retry-After, and \`retryAfterSeconds\`): a request cut by a client or a server that went away holds the upload for at most ${uploadLease.seconds} s after its last bytes, and not at all once an embedded-database server restarted. Bytes past the size declared when the upload was created answer 413 UPLOAD_SIZE_EXCEEDED. The answer is the new size; with the last byte the size and SHA-1 are checked (UPLOAD_CHECKSUM_MISMATCH: start again from 0) and the transcription is queued.`,
          security: publicApiSecurity,
          consumes: ['multipart/form-data', 'application/octet-stream'],
          params: fileIdParamsSchema,
          // Loose: the other headers (content-type above all) must stay for the multipart parser.
          headers: uploadChunkHeadersSchema.loose(),
          response: {
            200: recordingUploadStateSchema,
            409: z.union([uploadOffsetMismatchSchema, uploadInProgressSchema]),
            '4xx': apiErrorSchema,
          },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const startByte = request.headers['x-start-byte'];
        const append = (source: Readable) =>
          uploads.appendChunk(caller, request.params.fileId, startByte, source);
        try {
          if (!request.isMultipart()) {
            const body = request.body as Readable | undefined;
            if (!body || typeof (body as Partial<Readable>).pipe !== 'function') {
              throw new AppError(
                'UNSUPPORTED_MEDIA_TYPE',
                'Send the chunk as multipart/form-data in the field theFile, or as an application/octet-stream body.',
              );
            }
            return await append(body);
          }
          for await (const part of request.parts()) {
            if (part.type !== 'file') continue;
            if (part.fieldname !== 'theFile') {
              part.file.resume();
              throw new AppError('INVALID_FILE', 'Send the chunk in the field theFile.');
            }
            return await append(part.file);
          }
          throw new AppError('INVALID_FILE', 'Send the chunk in the field theFile.');
        } catch (error) {
          if (error instanceof UploadOffsetMismatch) {
            return reply.code(409).send({ code: error.code, message: error.message, size: error.size });
          }
          if (error instanceof UploadInProgress && error.retryAfterSeconds !== undefined) {
            return reply
              .code(409)
              .header('retry-after', String(error.retryAfterSeconds))
              .send({ code: error.code, message: error.message, retryAfterSeconds: error.retryAfterSeconds });
          }
          throw error;
        }
      },
    );

    app.get(
      '/files/third-party',
      {
        schema: {
          tags: ['files'],
          summary: 'Submitted files, newest first, a page at a time',
          security: publicApiSecurity,
          querystring: filesPageQuerySchema,
          response: { 200: filesPageSchema, '4xx': apiErrorSchema },
        },
      },
      (request) => files.page(callerOf(request).accountId, request.query.start, request.query.limit),
    );

    app.get(
      '/files/third-party/:fileId',
      {
        schema: {
          tags: ['files'],
          summary: 'One submitted file',
          security: publicApiSecurity,
          params: fileIdParamsSchema,
          response: { 200: submittedFileSchema, '4xx': apiErrorSchema },
        },
      },
      (request) => files.get(callerOf(request).accountId, request.params.fileId),
    );

    app.delete(
      '/files/third-party/:fileId',
      {
        schema: {
          tags: ['files'],
          summary: 'Delete a file: its recording, transcript and webhook log',
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

    app.get(
      '/files/third-party/:fileId/webhook-attempts',
      {
        schema: {
          tags: ['files'],
          summary: 'Every delivery attempt of the file’s webhook, newest first',
          security: publicApiSecurity,
          params: fileIdParamsSchema,
          response: { 200: webhookAttemptsSchema, '4xx': apiErrorSchema },
        },
      },
      async (request) => ({
        attempts: await webhooks.attempts(callerOf(request).accountId, request.params.fileId),
      }),
    );

    app.post(
      '/files/third-party/:fileId/webhook-resend',
      {
        schema: {
          tags: ['files'],
          summary: 'Send the file’s webhook again (a new message, signed and retried like the first)',
          description:
            'Answers 409 WEBHOOK_URL_MISSING for a file uploaded without a webhook URL, 409 TRANSCRIPT_NOT_READY while it is still being processed (its webhook is sent when it is done).',
          security: publicApiSecurity,
          params: fileIdParamsSchema,
          response: { 202: webhookResendSchema, 409: apiErrorSchema, '4xx': apiErrorSchema },
        },
      },
      async (request, reply) => {
        const messageId = await webhooks.resend(callerOf(request).accountId, request.params.fileId);
        return reply.code(202).send({ messageId });
      },
    );

    app.get(
      '/webhooks/signing-secret',
      {
        onRequest: hooks.consoleSession,
        schema: {
          tags: ['files'],
          summary: 'The account’s webhook signing secret (Standard Webhooks, whsec_…)',
          response: { 200: webhookSigningSecretSchema, '4xx': apiErrorSchema },
        },
      },
      async (request) => ({ secret: await webhooks.secretOf(callerOf(request).accountId) }),
    );

    app.post(
      '/webhooks/signing-secret/rotate',
      {
        onRequest: hooks.consoleSession,
        schema: {
          tags: ['files'],
          summary: 'Replace the webhook signing secret; later messages are signed with the new one',
          response: { 200: webhookSigningSecretSchema, '4xx': apiErrorSchema },
        },
      },
      async (request) => ({ secret: await webhooks.rotateSecret(callerOf(request).accountId) }),
    );

    app.get(
      '/transcripts/download',
      {
        schema: {
          tags: ['files'],
          summary: 'Download transcripts',
          description:
            'One id answers the transcript in the format asked for (text/plain, application/json, application/x-subrip or text/vtt) with its file name in Content-Disposition; several ids (comma-separated or repeated) answer one zip archive. Files of other accounts are not found; a file not done answers TRANSCRIPT_NOT_READY.',
          security: publicApiSecurity,
          querystring: downloadQuerySchema,
          produces: ['text/plain', 'application/json', 'application/x-subrip', 'text/vtt', 'application/zip'],
          response: { 200: z.any().describe('The transcript or the archive.'), '4xx': apiErrorSchema },
        },
      },
      async (request, reply) => {
        const download = await files.download(
          callerOf(request).accountId,
          request.query.fileIds,
          request.query.format,
        );
        return reply
          .type(download.contentType)
          .header('content-disposition', contentDisposition(download.fileName))
          .header('cache-control', 'private, no-store')
          .send(download.body);
      },
    );
  };
}

/** `attachment` with an ASCII fallback and the UTF-8 name (RFC 6266). */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
