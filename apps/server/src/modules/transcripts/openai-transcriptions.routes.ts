import multipart from '@fastify/multipart';
import {
  openAiDiarizedTranscriptionSchema,
  openAiErrorSchema,
  openAiTranscriptionFieldsSchema,
  openAiTranscriptionSchema,
  openAiVerboseTranscriptionSchema,
  type ValidationIssue,
} from '@verbatim/contracts';
import { formatTranscript, transcriptText } from '@verbatim/speech';
import type { onRequestAsyncHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors/app-error.js';
import { signedInAccount } from '../../http/authenticate.js';
import { errorAnswer } from '../../http/error-handler.js';
import { publicApiSecurity } from '../api-keys/api-authentication.js';
import {
  abortWhenClientLeaves,
  readAudioRequest,
  requestOptionsInvalid,
  type AudioUploadLimits,
} from './audio-request.js';
import { audioRequestBody } from './audio-request-docs.js';
import { toOpenAiDiarized, toOpenAiVerbose } from './openai-format.js';
import type { TranscriptionService } from './transcription.service.js';

/** OpenAI's `{error: {message, type, param, code}}` for one of the product's error answers. */
function withOpenAiError(
  body: { code: string; message: string; details?: ValidationIssue[] },
  status: number,
) {
  const param = body.details?.[0]?.path.join('.');
  return {
    ...body,
    error: {
      message: body.message,
      type:
        status >= 500 ? 'server_error' : status === 401 ? 'authentication_error' : 'invalid_request_error',
      param: param || null,
      code: body.code.toLowerCase(),
    },
  };
}

/**
 * OpenAI-compatible `POST /audio/transcriptions`: the request and answers of OpenAI's API
 * reference, so OpenAI SDK clients work by changing their base URL to `<server>/api/v1`. The
 * `model` field is accepted for compatibility; the server's installed model transcribes.
 */
export function openAiTranscriptionRoutes(
  service: TranscriptionService,
  authenticateApi: onRequestAsyncHookHandler,
  uploads: AudioUploadLimits,
): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', authenticateApi);
    // This route's errors: the product's answer, plus OpenAI's error object.
    app.setErrorHandler((error: unknown, request, reply) => {
      const { status, body } = errorAnswer(error, request, reply);
      return reply.status(status).send(withOpenAiError(body, status));
    });
    await app.register(multipart, {
      limits: { fileSize: uploads.maxBytes, files: 1, fields: 12, parts: 14 },
    });

    app.post(
      '/audio/transcriptions',
      {
        bodyLimit: uploads.maxBytes,
        config: {
          openApiRequestBody: audioRequestBody('file', openAiTranscriptionFieldsSchema, {
            multipartOnly: true,
          }),
        },
        schema: {
          tags: ['transcription'],
          summary: 'Transcribe a recording (OpenAI-compatible)',
          description:
            'The request and answers of OpenAI’s `POST /v1/audio/transcriptions`: multipart/form-data with `file`, `model`, `language`, `prompt`, `response_format` (json, text, srt, verbose_json, vtt, or diarized_json: OpenAI’s diarized transcription, segments labelled with their speaker S1, S2… or the names given; 503 SPEECH_UNAVAILABLE without the diarization models), `timestamp_granularities[]` (word, segment) and `temperature`. Point an OpenAI SDK at `<server>/api/v1` with an API key. Errors carry OpenAI’s `error` object beside the product’s `code` and `message`. Charged like `POST /transcripts`.',
          security: publicApiSecurity,
          consumes: ['multipart/form-data'],
          produces: ['application/json', 'text/plain', 'application/x-subrip', 'text/vtt'],
          response: {
            // diarized_json and verbose_json first: a plain `{text}` schema would strip their other fields.
            200: openAiDiarizedTranscriptionSchema
              .or(openAiVerboseTranscriptionSchema)
              .or(openAiTranscriptionSchema)
              .or(z.string()),
            '4xx': openAiErrorSchema,
            '5xx': openAiErrorSchema,
          },
        },
      },
      async (request, reply) => {
        if (!request.isMultipart()) {
          throw new AppError(
            'UNSUPPORTED_MEDIA_TYPE',
            'Send multipart/form-data with the recording in the field "file".',
          );
        }
        const caller = { accountId: signedInAccount(request).id, apiKeyId: request.apiKey?.id ?? null };
        const signal = abortWhenClientLeaves(reply);
        const { audio, fields } = await readAudioRequest(request, uploads, 'file');
        try {
          const granularityField = fields['timestamp_granularities[]'] ?? fields.timestamp_granularities;
          const parsed = openAiTranscriptionFieldsSchema.safeParse({
            ...fields,
            'timestamp_granularities[]':
              granularityField === undefined ? undefined : [granularityField].flat(),
          });
          if (!parsed.success) {
            throw requestOptionsInvalid(parsed.error, 'body');
          }
          const options = parsed.data;
          const granularities = options['timestamp_granularities[]'] ?? ['segment'];
          const completed = await service.transcribe(caller, {
            filePath: audio.path,
            ...(options.language ? { language: options.language } : {}),
            ...(options.prompt ? { prompt: options.prompt } : {}),
            wordTimestamps: true,
            diarization: options.response_format === 'diarized_json' ? {} : undefined,
            signal,
          });
          reply.header('x-transcript-id', completed.id);
          const text = transcriptText(completed.transcript);
          switch (options.response_format) {
            case 'json':
              return { text };
            case 'diarized_json':
              return toOpenAiDiarized(completed.transcript, text, completed.response.billedSeconds);
            case 'verbose_json':
              return toOpenAiVerbose(completed.transcript, text, {
                words: granularities.includes('word'),
                segments: granularities.includes('segment'),
              });
            case 'text':
              return reply.type('text/plain; charset=utf-8').send(`${text}\n`);
            case 'srt':
            case 'vtt': {
              const formatted = formatTranscript(completed.transcript, options.response_format);
              return reply.type(formatted.contentType).send(formatted.body);
            }
          }
        } finally {
          await audio.remove();
        }
      },
    );
  };
}
