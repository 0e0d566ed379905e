import multipart from '@fastify/multipart';
import {
  apiErrorSchema,
  rawPcmFormatOf,
  diarizationRequestOf,
  transcribeQuerySchema,
  transcriptSchema,
  transcriptionLanguageEntrySchema,
} from '@verbatim/contracts';
import { formatTranscript } from '@verbatim/speech';
import type { onRequestAsyncHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { signedInAccount } from '../../http/authenticate.js';
import { publicApiSecurity } from '../api-keys/api-authentication.js';
import {
  abortWhenClientLeaves,
  rawAudioContentType,
  readAudioRequest,
  requestOptionsInvalid,
  type AudioUploadLimits,
} from './audio-request.js';
import { audioRequestBody } from './audio-request-docs.js';
import type { TranscriptionService } from './transcription.service.js';

const textAnswer = z
  .string()
  .describe('The transcript as text/plain, application/x-subrip or text/vtt (per format).');

/** `POST /transcripts` (pre-recorded audio in, transcript out) and the language list of the engine. */
export function transcriptsRoutes(
  service: TranscriptionService,
  authenticateApi: onRequestAsyncHookHandler,
  uploads: AudioUploadLimits,
): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', authenticateApi);
    // The recording is streamed to disk by the handler, never parsed into memory.
    app.addContentTypeParser(rawAudioContentType, (_request, payload, done) => done(null, payload));
    app.addContentTypeParser('application/octet-stream', (_request, payload, done) => done(null, payload));
    await app.register(multipart, {
      limits: { fileSize: uploads.maxBytes, files: 1, fields: 10, parts: 12 },
    });

    app.post(
      '/transcripts',
      {
        bodyLimit: uploads.maxBytes,
        config: { openApiRequestBody: audioRequestBody('file', transcribeQuerySchema) },
        schema: {
          tags: ['transcription'],
          summary: 'Transcribe a recording',
          description:
            'Send the recording as the body (any audio/* or video/* type, or application/octet-stream) or as multipart/form-data in the field `file` (options may then be form fields). mp3, mp4/m4a/mov, ogg (Vorbis, Opus), wav, flac, webm, aiff and aac are decoded; headerless PCM (raw samples, as telephony systems send them) when `encoding` and `sampleRate` (and `channels`, default 1) say what it is, e.g. `?encoding=s16le&sampleRate=8000`. The answer is the transcript in the format asked for. With `diarize=true` (and optionally `speakers`, or `minSpeakers`/`maxSpeakers`) every segment and word gets its speaker (`S1`, `S2`… in order of first appearance; a segment never spans two speakers), the transcript lists `speakers` and `speakerTurns`, text has one paragraph per turn (`S1: …`), SRT cues start with `S1: ` and VTT cues are voice spans (`<v S1>`); without the diarization models it answers 503 SPEECH_UNAVAILABLE naming the download command. Charged at the HTTP API price per started second of audio, once, after a successful transcription (diarization costs nothing more); refused with 402 before any work when the credit does not cover the recording.',
          security: publicApiSecurity,
          querystring: transcribeQuerySchema,
          produces: ['application/json', 'text/plain', 'application/x-subrip', 'text/vtt'],
          response: {
            200: transcriptSchema.or(textAnswer),
            '4xx': apiErrorSchema,
            '5xx': apiErrorSchema,
          },
        },
      },
      async (request, reply) => {
        const caller = { accountId: signedInAccount(request).id, apiKeyId: request.apiKey?.id ?? null };
        const signal = abortWhenClientLeaves(reply);
        const { audio, fields } = await readAudioRequest(request, uploads, 'file');
        try {
          // The query as sent (the route's schema already turned it into values), then form fields.
          const sentQuery = Object.fromEntries(new URL(request.url, 'http://localhost').searchParams);
          const options = transcribeQuerySchema.safeParse({ ...sentQuery, ...fields });
          if (!options.success) throw requestOptionsInvalid(options.error, 'query');
          const { language, prompt, wordTimestamps, format } = options.data;
          const rawPcm = rawPcmFormatOf(options.data);
          const completed = await service.transcribe(caller, {
            filePath: audio.path,
            ...(language ? { language } : {}),
            ...(prompt ? { prompt } : {}),
            ...(rawPcm ? { rawPcm } : {}),
            wordTimestamps,
            diarization: diarizationRequestOf(options.data),
            signal,
          });
          reply.header('x-transcript-id', completed.id);
          if (format === 'json') return completed.response;
          const formatted = formatTranscript(completed.transcript, format);
          return reply.type(formatted.contentType).send(formatted.body);
        } finally {
          await audio.remove();
        }
      },
    );

    app.get(
      '/speech/languages',
      {
        schema: {
          tags: ['transcription'],
          summary: 'Languages the installed speech models transcribe, and which of them work live',
          security: publicApiSecurity,
          querystring: z.object({
            locale: z.enum(['en', 'fr']).default('en').describe('Language of the names.'),
          }),
          response: { 200: z.array(transcriptionLanguageEntrySchema), '4xx': apiErrorSchema },
        },
      },
      (request) => service.speech.languages(request.query.locale),
    );
  };
}
