import { isSpeechError, type SpeechErrorCode } from '@verbatim/speech';
import type { ErrorCode } from '@verbatim/contracts';
import { AppError } from '../../errors/app-error.js';

const codeBySpeechCode = {
  INVALID_FILE: 'INVALID_FILE',
  UNSUPPORTED_MEDIA: 'UNSUPPORTED_MEDIA',
  SPEECH_UNAVAILABLE: 'SPEECH_UNAVAILABLE',
  SPEECH_BUSY: 'SPEECH_BUSY',
  UNSUPPORTED_LANGUAGE: 'UNSUPPORTED_LANGUAGE',
  // A model file the engine refused to load: the operator's problem, not the caller's.
  INVALID_MODEL: 'SPEECH_UNAVAILABLE',
  CANCELLED: 'BAD_REQUEST',
  TOO_LONG: 'RECORDING_TOO_LONG',
  TRANSCRIPTION_FAILED: 'TRANSCRIPTION_FAILED',
} as const satisfies Record<SpeechErrorCode, ErrorCode>;

/** The speech engine's errors as the API's: same message, the product's code and status. */
export function toAppErrorFromSpeech(error: unknown): unknown {
  if (!isSpeechError(error)) return error;
  const retryAfter = error.details?.retryAfterSeconds;
  return new AppError(codeBySpeechCode[error.code], error.message, undefined, {
    cause: error,
    ...(typeof retryAfter === 'number' ? { retryAfterSeconds: retryAfter } : {}),
  });
}
