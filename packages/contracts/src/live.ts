import { z } from 'zod';

import { errorCodeSchema } from './errors.js';
import { pcmEncodings, pcmEncodingSchema, pcmSampleRateSchema } from './raw-audio.js';
import { transcriptionLanguageSchema } from './transcripts.js';

/**
 * Live transcription over a WebSocket: `GET /api/v1/transcripts/streaming` (spec §7).
 *
 * The client sends binary frames of audio (16 kHz mono float32 little-endian unless `encoding` and
 * `sampleRate` say otherwise, any chunk size up to 1 MiB, a whole number of samples) and the text
 * frame `Done` to finish. The server sends JSON text frames: `{"type":"connected"}` once ready, then
 * `partial` and `final` segments. A message whose `segment` equals the last one's replaces it; a new
 * `segment` appends; the displayed text is every segment's text followed by a newline.
 */
export const LIVE_STREAMING_PATH = '/api/v1/transcripts/streaming';

/** The text frame that ends a session: the server flushes the last final, then closes with 1000. */
export const LIVE_DONE_MESSAGE = 'Done';

/** Largest binary frame accepted (bytes); a larger one closes the socket with 1009. */
export const LIVE_MAX_FRAME_BYTES = 1024 * 1024;

/** The sample rate the recogniser works at; other rates are resampled by the server. */
export const LIVE_SAMPLE_RATE = 16_000;

export const liveEncodings = pcmEncodings;
export const liveEncodingSchema = pcmEncodingSchema;
export type LiveEncoding = z.infer<typeof liveEncodingSchema>;

/** `microphone`: speech as it is spoken (streaming price); `file`: a recording sent as if spoken (pre-recorded socket price). */
export const liveSources = ['microphone', 'file'] as const;
export const liveSourceSchema = z.enum(liveSources);
export type LiveSource = z.infer<typeof liveSourceSchema>;

const booleanParameter = z
  .enum(['true', 'false', '1', '0'])
  .transform((value) => value === 'true' || value === '1');

/** Query parameters of the socket (all strings on the wire). */
export const liveQuerySchema = z.object({
  accessToken: z
    .string()
    .min(1)
    .optional()
    .describe(
      'A console access token or an API key. Server-side clients may send `Authorization: Bearer …` or `x-api-key` instead.',
    ),
  languageCode: transcriptionLanguageSchema.describe(
    'Language of the speech: a language the model supports (en, fr, …), `fr-medical`, or `auto`.',
  ),
  endpoints: booleanParameter
    .default(true)
    .describe(
      'true (default): a pause ends the segment and the next speech starts a new one (a new paragraph).',
    ),
  encoding: liveEncodingSchema
    .default('f32le')
    .describe('Sample format of the binary frames: f32le (default, float32 little-endian) or s16le.'),
  sampleRate: pcmSampleRateSchema
    .default(LIVE_SAMPLE_RATE)
    .describe('Sample rate of the audio sent (mono), resampled to 16 kHz by the server; default 16000.'),
  source: liveSourceSchema
    .default('microphone')
    .describe(
      'microphone (default, streaming price) or file (a recording streamed as if spoken, pre-recorded socket price).',
    ),
});
export type LiveQuery = z.infer<typeof liveQuerySchema>;
/** The query as a client builds it (before defaults and coercion). */
export type LiveQueryInput = z.input<typeof liveQuerySchema>;

export const liveConnectedMessageSchema = z.object({ type: z.literal('connected') });

/** A segment of transcript: `partial` may still change, `final` will not (until a later message with the same id). */
export const liveSegmentMessageSchema = z.object({
  type: z.enum(['partial', 'final']),
  /** Identifier of the segment: the same as the last message's replaces it, a new one appends. */
  segment: z.int().nonnegative(),
  text: z.string(),
});
export type LiveSegmentMessage = z.infer<typeof liveSegmentMessageSchema>;

/** Every message the server sends (JSON text frames). */
export const liveServerMessageSchema = z
  .union([liveConnectedMessageSchema, liveSegmentMessageSchema])
  .meta({ id: 'LiveServerMessage' });
export type LiveServerMessage = z.infer<typeof liveServerMessageSchema>;

/** Close codes of the socket. */
export const liveCloseCodes = {
  /** `Done` received and the last final sent, or the client closed. */
  normal: 1000,
  /** The server is shutting down (the last final was flushed first). */
  shuttingDown: 1012,
  /** A binary frame over 1 MiB. */
  frameTooLarge: 1009,
  /** An unexpected server failure. */
  internalError: 1011,
  /** Bad parameter, unknown language, a frame that is not a whole number of samples, or an unknown text frame. */
  badRequest: 4400,
  /** Missing, bad or expired credentials. */
  unauthenticated: 4401,
  /** Credit exhausted or the API key's monthly cap reached (the last final was flushed first). */
  paymentRequired: 4402,
  /** No audio for 60 s. */
  idle: 4408,
  /** The speech engine is unavailable or every recogniser is busy. */
  unavailable: 4503,
} as const;
export type LiveCloseCode = (typeof liveCloseCodes)[keyof typeof liveCloseCodes];

/** The close reason: JSON, at most 123 bytes (the WebSocket limit), so messages are short. */
export const liveCloseReasonSchema = z.object({ code: errorCodeSchema, message: z.string() });
export type LiveCloseReason = z.infer<typeof liveCloseReasonSchema>;

/** Seconds without any audio after which the server closes with 4408. */
export const LIVE_IDLE_TIMEOUT_SECONDS = 60;

/** One segment of a live transcript, as the server last sent it. */
export interface LiveTranscriptSegment {
  id: number;
  text: string;
  final: boolean;
}

/**
 * What a client shows (spec §3 Transcript segment): a message with the id of the last segment
 * replaces it; any other id appends a new segment.
 */
export function applyLiveSegmentMessage(
  segments: readonly LiveTranscriptSegment[],
  message: LiveSegmentMessage,
): LiveTranscriptSegment[] {
  const segment = { id: message.segment, text: message.text, final: message.type === 'final' };
  const last = segments.at(-1);
  return last?.id === message.segment ? [...segments.slice(0, -1), segment] : [...segments, segment];
}

/** The lines a client shows after `messages`: one per segment (`connected` is skipped). */
export function liveTranscriptLines(messages: readonly LiveServerMessage[]): string[] {
  let segments: LiveTranscriptSegment[] = [];
  for (const message of messages) {
    if (message.type !== 'connected') segments = applyLiveSegmentMessage(segments, message);
  }
  return segments.map((segment) => segment.text);
}
