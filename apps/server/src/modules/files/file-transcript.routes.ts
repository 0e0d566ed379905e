import {
  apiErrorSchema,
  fileIdParamsSchema,
  fileSpeakersSchema,
  fileTranscriptSchema,
  recordingAudioQuerySchema,
  recordingAudioUrlSchema,
  renameSpeakersRequestSchema,
} from '@verbatim/contracts';
import type { onRequestAsyncHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { publicApiSecurity } from '../api-keys/api-authentication.js';
import { parseByteRange } from './byte-range.js';
import { callerOf } from './files.routes.js';
import type { FilesService } from './files.service.js';

/**
 * What the console's transcript page reads and changes of one file: its transcript (words,
 * confidence, speakers), the names of its speakers, and its recording for an `<audio>` element
 * (through a short-lived signed address, since the element sends no Authorization header).
 */
export function fileTranscriptRoutes(
  files: FilesService,
  authenticateApi: onRequestAsyncHookHandler,
): FastifyPluginAsyncZod {
  return (app) => {
    app.get(
      '/files/third-party/:fileId/transcript',
      {
        onRequest: authenticateApi,
        schema: {
          tags: ['files'],
          summary: 'The transcript of a file: segments, words with their confidence, speakers',
          description:
            'The transcript of a done file as JSON; in a diarized one every segment and word has its `speaker`, `speakers` gives their names and `speakerTurns` who speaks when. 409 TRANSCRIPT_NOT_READY before it is done.',
          security: publicApiSecurity,
          params: fileIdParamsSchema,
          response: { 200: fileTranscriptSchema, '4xx': apiErrorSchema },
        },
      },
      (request) => files.transcript(callerOf(request).accountId, request.params.fileId),
    );

    app.put(
      '/files/third-party/:fileId/speakers',
      {
        onRequest: authenticateApi,
        schema: {
          tags: ['files'],
          summary: 'Name the speakers of a diarized transcript',
          description:
            'Gives names to some speakers (`S1`, `S2`…; the others keep theirs). Every download format, the jobs API, the transcript and CRM notes and tasks sent from then on show the names. 400 VALIDATION_FAILED for a transcript without speakers or an id it does not have.',
          security: publicApiSecurity,
          params: fileIdParamsSchema,
          body: renameSpeakersRequestSchema,
          response: { 200: fileSpeakersSchema, '4xx': apiErrorSchema },
        },
      },
      (request) => files.renameSpeakers(callerOf(request).accountId, request.params.fileId, request.body),
    );

    app.post(
      '/files/third-party/:fileId/audio-url',
      {
        onRequest: authenticateApi,
        schema: {
          tags: ['files'],
          summary: 'A short-lived address of the file’s recording, for an audio player',
          description:
            'An `<audio>` element cannot send an Authorization header: this answers an address of the recording that carries its own signature, valid for 6 hours and for this file only. `GET` it with or without `Range` (the player seeks with it). 404 until the upload is complete.',
          security: publicApiSecurity,
          params: fileIdParamsSchema,
          response: { 200: recordingAudioUrlSchema, '4xx': apiErrorSchema },
        },
      },
      (request) => files.audioAddress(callerOf(request).accountId, request.params.fileId),
    );

    app.get(
      '/files/third-party/:fileId/audio',
      {
        schema: {
          tags: ['files'],
          summary: 'The file’s recording, as uploaded (signed address; Range supported)',
          description:
            'Streams the original recording with its type; `Range: bytes=…` answers 206 with that part (416 past the end). The credential is the signature of `POST …/audio-url` in the query: BAD_TOKEN when it is not this file’s, TOKEN_EXPIRED after its time.',
          params: fileIdParamsSchema,
          querystring: recordingAudioQuerySchema,
          produces: ['audio/*', 'video/*', 'application/octet-stream'],
          response: {
            200: z.any().describe('The recording.'),
            206: z.any().describe('The part of the recording asked for.'),
            '4xx': apiErrorSchema,
          },
        },
      },
      async (request, reply) => {
        const recording = await files.signedRecording(request.params.fileId, request.query);
        const range = parseByteRange(request.headers.range, recording.size);
        reply.header('accept-ranges', 'bytes').header('cache-control', 'private, max-age=3600');
        if (range === 'unsatisfiable') {
          return reply
            .code(416)
            .header('content-range', `bytes */${recording.size}`)
            .send({ code: 'BAD_REQUEST', message: `The recording has ${recording.size} bytes.` });
        }
        const { start, end } = range ?? { start: 0, end: recording.size - 1 };
        reply.type(recording.mediaType).header('content-length', String(end - start + 1));
        if (range) reply.code(206).header('content-range', `bytes ${start}-${end}/${recording.size}`);
        return reply.send(await recording.open(start, end));
      },
    );
    return Promise.resolve();
  };
}
