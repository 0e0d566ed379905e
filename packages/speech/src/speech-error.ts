/**
 * Why the engine could not do what it was asked. The codes are stable: the server maps them to
 * its own error codes and HTTP statuses, the CLI prints the message.
 */
export const speechErrorCodes = [
  /** The file is not a recording: empty, truncated beyond use, not a media container at all. */
  'INVALID_FILE',
  /** A media file, but nothing we can transcribe in it (no audio stream, unknown codec). */
  'UNSUPPORTED_MEDIA',
  /** No usable model, or ffmpeg is missing: the engine cannot work at all. */
  'SPEECH_UNAVAILABLE',
  /** Every recogniser is busy and the waiting line is full. */
  'SPEECH_BUSY',
  /** The language asked for is not one the model knows. */
  'UNSUPPORTED_LANGUAGE',
  /** A model file that is not a whisper.cpp ggml model, or is cut short. */
  'INVALID_MODEL',
  /** The caller cancelled the work. */
  'CANCELLED',
  /** The recording is longer than allowed. */
  'TOO_LONG',
  /** Recognition itself failed (native error, worker crash). */
  'TRANSCRIPTION_FAILED',
] as const;

export type SpeechErrorCode = (typeof speechErrorCodes)[number];

export class SpeechError extends Error {
  constructor(
    readonly code: SpeechErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'SpeechError';
  }
}

export function isSpeechError(error: unknown): error is SpeechError {
  return error instanceof SpeechError;
}
