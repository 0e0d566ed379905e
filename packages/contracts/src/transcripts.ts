import { z } from 'zod';

/** Output formats of a transcript: the JSON structure, plain text, SubRip and WebVTT subtitles. */
export const transcriptFormats = ['json', 'text', 'srt', 'vtt'] as const;
export const transcriptFormatSchema = z.enum(transcriptFormats);
export type TranscriptFormat = z.infer<typeof transcriptFormatSchema>;

export const transcriptWordSchema = z
  .object({
    /** Seconds from the start of the recording, to the millisecond. */
    start: z.number().nonnegative(),
    end: z.number().nonnegative(),
    text: z.string(),
    /** 0–1: the recogniser's confidence in the word. */
    confidence: z.number().min(0).max(1),
  })
  .meta({ id: 'TranscriptWord' });

export const transcriptSegmentSchema = z
  .object({
    id: z.int().nonnegative(),
    start: z.number().nonnegative(),
    end: z.number().nonnegative(),
    text: z.string(),
    /** Empty unless word timestamps were asked for. */
    words: z.array(transcriptWordSchema),
  })
  .meta({ id: 'TranscriptSegment' });

/** `POST /transcripts` with format=json: the transcript and what was charged for it. */
export const transcriptSchema = z
  .object({
    id: z.string(),
    /** ISO 639-1 code of the language recognised: the one asked for, or the one detected. */
    language: z.string(),
    /** Seconds of audio. */
    duration: z.number().nonnegative(),
    /** The whole text, segments joined by spaces. */
    text: z.string(),
    segments: z.array(transcriptSegmentSchema),
    /** Seconds charged (each started second) at the HTTP API price; 0 for a recording without audio. */
    billedSeconds: z.int().nonnegative(),
  })
  .meta({
    id: 'Transcript',
    examples: [
      {
        id: 'trn_01jqz8m2k4x7c9v3b5n6p8r0ta',
        language: 'en',
        duration: 11,
        text: 'And so, my fellow Americans, ask not what your country can do for you.',
        segments: [
          {
            id: 0,
            start: 0.32,
            end: 7.6,
            text: 'And so, my fellow Americans, ask not what your country can do for you.',
            words: [
              { start: 0.32, end: 0.4, text: 'And', confidence: 0.69 },
              { start: 0.4, end: 0.52, text: 'so,', confidence: 0.99 },
            ],
          },
        ],
        billedSeconds: 11,
      },
    ],
  });
export type TranscriptResponse = z.infer<typeof transcriptSchema>;

const booleanQuery = z
  .enum(['true', 'false', '1', '0'])
  .transform((value) => value === 'true' || value === '1');

/** The language field: an ISO 639-1 code (or Whisper's 3-letter ones), `fr-medical`, or `auto`. */
export const transcriptionLanguageSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^([a-z]{2,3}|fr-medical|auto)$/, 'must be a language code such as en, fr, fr-medical, or auto');

/** Options of `POST /transcripts`, as query parameters (or multipart fields). */
export const transcribeQuerySchema = z.object({
  language: transcriptionLanguageSchema
    .optional()
    .describe('Language of the speech; omitted or `auto`: detected.'),
  format: transcriptFormatSchema.default('json').describe('json (default), text, srt or vtt.'),
  prompt: z
    .string()
    .max(1000)
    .optional()
    .describe('Names, jargon or earlier context that help the recogniser (Whisper’s initial prompt).'),
  wordTimestamps: booleanQuery
    .default(true)
    .describe('Include each word with its times and confidence (json).'),
});

/** What the speech engine can transcribe: `GET /speech/languages`. */
export const transcriptionLanguageEntrySchema = z
  .object({ code: z.string(), name: z.string(), isRealtimeSupported: z.boolean() })
  .meta({ id: 'TranscriptLanguage' });
export type TranscriptionLanguageEntry = z.infer<typeof transcriptionLanguageEntrySchema>;
