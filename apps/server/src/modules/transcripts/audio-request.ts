import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import type { ValidationIssue } from '@verbatim/contracts';
import type { z } from 'zod';
import { AppError } from '../../errors/app-error.js';
import { refuseControlCharacters } from '../../http/control-characters.js';
import { receiveAudio, type ReceivedAudio } from './audio-upload.js';

export interface AudioUploadLimits {
  /** Where uploads wait while they are transcribed. */
  directory: string;
  maxBytes: number;
}

/** Content types of a raw audio or video body (`--data-binary @file.mp3`). */
export const rawAudioContentType = /^(audio|video)\/[\w.+-]+$/;

export interface AudioRequest {
  audio: ReceivedAudio;
  /** Multipart text fields (repeated names keep every value), for options sent as form fields. */
  fields: Record<string, string | string[]>;
}

function declaredLength(request: FastifyRequest): number | undefined {
  const header = request.headers['content-length'];
  const length = header === undefined ? Number.NaN : Number(header);
  return Number.isFinite(length) ? length : undefined;
}

/**
 * Reads the recording of a transcription request into a temporary file: the raw body (any
 * audio/* or video/* type, or application/octet-stream), or the multipart field `fileField` with
 * the other fields beside it. Exactly one recording; a clear 4xx for anything else.
 */
export async function readAudioRequest(
  request: FastifyRequest,
  limits: AudioUploadLimits,
  fileField: string,
): Promise<AudioRequest> {
  const fields: Record<string, string | string[]> = {};
  if (!request.isMultipart()) {
    const body = request.body as Readable | undefined;
    if (!body || typeof (body as Partial<Readable>).pipe !== 'function') {
      throw new AppError(
        'UNSUPPORTED_MEDIA_TYPE',
        `Send the recording as the body (Content-Type audio/*, video/* or application/octet-stream) or as multipart/form-data in the field "${fileField}".`,
      );
    }
    const declared = declaredLength(request);
    const audio = await receiveAudio(body, {
      ...limits,
      ...(declared !== undefined ? { declaredBytes: declared } : {}),
    });
    return { audio, fields };
  }

  let audio: ReceivedAudio | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== fileField || audio) {
          part.file.resume();
          throw new AppError('INVALID_FILE', `Send exactly one recording, in the field "${fileField}".`);
        }
        audio = await receiveAudio(part.file, { ...limits, fileName: part.filename });
        continue;
      }
      const value = typeof part.value === 'string' ? part.value : String(part.value);
      const existing = fields[part.fieldname];
      fields[part.fieldname] = existing === undefined ? value : [existing, value].flat();
    }
    // The route's schema never sees form fields: the control-character rule of every body, here.
    const fileName = audio?.fileName === undefined ? {} : { [fileField]: audio.fileName };
    refuseControlCharacters({ ...fields, ...fileName }, 'body');
  } catch (error) {
    await audio?.remove();
    if (error instanceof AppError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError(
        'PAYLOAD_TOO_LARGE',
        `The recording is larger than ${Math.round(limits.maxBytes / 1_048_576)} MB.`,
      );
    }
    if (code?.startsWith('FST_'))
      throw new AppError('BAD_REQUEST', 'The multipart body is not valid.', undefined, { cause: error });
    throw error;
  }
  if (!audio) throw new AppError('INVALID_FILE', `Send the recording in the multipart field "${fileField}".`);
  return { audio, fields };
}

/**
 * Aborts when the client goes away before its answer is complete: the transcription stops and
 * its recogniser is freed for others.
 */
export function abortWhenClientLeaves(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}

/**
 * The options of a transcription request are checked by the handler (they may come as form fields
 * beside the streamed file), with the same VALIDATION_FAILED answer as a route schema gives.
 */
export function requestOptionsInvalid(error: z.ZodError, location: ValidationIssue['location']): AppError {
  const details = error.issues.map((issue): ValidationIssue => ({
    location,
    path: issue.path.filter((part): part is string | number => typeof part !== 'symbol'),
    message: issue.message,
  }));
  return new AppError('VALIDATION_FAILED', details[0]?.message ?? 'The request is not valid.', details);
}
