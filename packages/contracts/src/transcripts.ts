import { z } from 'zod';

import { checkRawAudioOptions, rawAudioQueryFields } from './raw-audio.js';

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
    /** Who said it (`S1`, `S2`…); only in a transcript made with diarize=true. */
    speaker: z.string().optional(),
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
    /** Who speaks (`S1`, `S2`…); only with diarize=true. A segment never spans two speakers. */
    speaker: z.string().optional(),
  })
  .meta({ id: 'TranscriptSegment' });

/** Speaker ids of a diarized transcript: `S1`, `S2`… in order of first appearance. */
export const speakerIdSchema = z
  .string()
  .regex(/^S[1-9][0-9]?$/, 'A speaker id is S1, S2…')
  .describe('`S1`, `S2`… in order of first appearance.');

/** The most speakers a recording may be said to hold (speakers, minSpeakers, maxSpeakers). */
export const maxDiarizationSpeakers = 20;

/** A speaker of a diarized transcript; `name` is the id until the speaker is renamed. */
export const transcriptSpeakerSchema = z
  .object({ id: speakerIdSchema, name: z.string() })
  .meta({ id: 'TranscriptSpeaker' });
export type TranscriptSpeaker = z.infer<typeof transcriptSpeakerSchema>;

/**
 * Who speaks when, as the diarization found it (the turns of two speakers may overlap; this is
 * what a diarization error rate is computed on).
 */
export const speakerTurnSchema = z
  .object({ speaker: speakerIdSchema, start: z.number().nonnegative(), end: z.number().nonnegative() })
  .meta({ id: 'SpeakerTurn' });
export type SpeakerTurnResponse = z.infer<typeof speakerTurnSchema>;

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
    /** Only with diarize=true: every speaker heard, with the name given to it (the id until renamed). */
    speakers: z.array(transcriptSpeakerSchema).optional(),
    /** Only with diarize=true: who speaks when, overlaps included. */
    speakerTurns: z.array(speakerTurnSchema).optional(),
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
      {
        id: 'trn_01jqz9d4r8w2m6k1p3s5v7x9zb',
        language: 'en',
        duration: 6.2,
        text: 'Are you coming tonight? Yes, at eight.',
        segments: [
          {
            id: 0,
            start: 0.4,
            end: 2.1,
            text: 'Are you coming tonight?',
            speaker: 'S1',
            words: [
              { start: 0.4, end: 0.62, text: 'Are', confidence: 0.97, speaker: 'S1' },
              { start: 0.62, end: 0.8, text: 'you', confidence: 0.99, speaker: 'S1' },
              { start: 0.8, end: 1.3, text: 'coming', confidence: 0.98, speaker: 'S1' },
              { start: 1.3, end: 2.1, text: 'tonight?', confidence: 0.96, speaker: 'S1' },
            ],
          },
          {
            id: 1,
            start: 2.6,
            end: 4.0,
            text: 'Yes, at eight.',
            speaker: 'S2',
            words: [
              { start: 2.6, end: 3.0, text: 'Yes,', confidence: 0.95, speaker: 'S2' },
              { start: 3.1, end: 3.3, text: 'at', confidence: 0.99, speaker: 'S2' },
              { start: 3.3, end: 4.0, text: 'eight.', confidence: 0.97, speaker: 'S2' },
            ],
          },
        ],
        speakers: [
          { id: 'S1', name: 'Anna' },
          { id: 'S2', name: 'S2' },
        ],
        speakerTurns: [
          { speaker: 'S1', start: 0.35, end: 2.2 },
          { speaker: 'S2', start: 2.5, end: 4.1 },
        ],
        billedSeconds: 7,
      },
    ],
  });
export type TranscriptResponse = z.infer<typeof transcriptSchema>;

/** A yes/no query parameter or form field: `true`/`false` or `1`/`0`. */
export const booleanQuery = z
  .enum(['true', 'false', '1', '0'])
  .transform((value) => value === 'true' || value === '1');

const speakerCountQuery = z.coerce
  .number()
  .int()
  .min(1, 'must be between 1 and 20')
  .max(maxDiarizationSpeakers, 'must be between 1 and 20');

/**
 * The diarization options of a transcription request (query parameters or form fields). Checked
 * together by {@link checkDiarizationOptions}.
 */
export const diarizationQueryFields = {
  diarize: booleanQuery
    .default(false)
    .describe(
      'Tell who speaks when: every segment and word gets a `speaker` (S1, S2…), the transcript `speakers` and `speakerTurns`; text, srt and vtt name the speakers. At no extra charge.',
    ),
  speakers: speakerCountQuery
    .optional()
    .describe('How many speakers there are, when known (1–20; with diarize=true).'),
  minSpeakers: speakerCountQuery
    .optional()
    .describe('At least this many speakers (1–20; with diarize=true; not with speakers).'),
  maxSpeakers: speakerCountQuery
    .optional()
    .describe('At most this many speakers (1–20; with diarize=true; not with speakers).'),
};

/** What the engine is told about the speakers of a recording to diarize. */
export interface DiarizationRequest {
  speakers?: number;
  minSpeakers?: number;
  maxSpeakers?: number;
}

/**
 * The rules the diarization options follow together: the counts need diarize=true, `speakers`
 * excludes `minSpeakers`/`maxSpeakers`, and `minSpeakers` ≤ `maxSpeakers`.
 */
export function checkDiarizationOptions(
  value: DiarizationRequest & { diarize?: boolean | undefined },
  context: z.RefinementCtx,
): void {
  const counted = (['speakers', 'minSpeakers', 'maxSpeakers'] as const).filter(
    (key) => value[key] !== undefined,
  );
  if (counted.length > 0 && value.diarize !== true) {
    context.addIssue({
      code: 'custom',
      path: [counted[0] ?? 'speakers'],
      message: 'speakers, minSpeakers and maxSpeakers need diarize=true.',
    });
  }
  if (value.speakers !== undefined && (value.minSpeakers !== undefined || value.maxSpeakers !== undefined)) {
    context.addIssue({
      code: 'custom',
      path: ['speakers'],
      message: 'Give either speakers or minSpeakers/maxSpeakers, not both.',
    });
  }
  if (
    value.minSpeakers !== undefined &&
    value.maxSpeakers !== undefined &&
    value.minSpeakers > value.maxSpeakers
  ) {
    context.addIssue({
      code: 'custom',
      path: ['minSpeakers'],
      message: 'minSpeakers must not be more than maxSpeakers.',
    });
  }
}

/** The engine's diarization request from checked options; undefined when diarize is off. */
export function diarizationRequestOf(
  options: DiarizationRequest & { diarize?: boolean | undefined },
): DiarizationRequest | undefined {
  if (options.diarize !== true) return undefined;
  return {
    ...(options.speakers !== undefined ? { speakers: options.speakers } : {}),
    ...(options.minSpeakers !== undefined ? { minSpeakers: options.minSpeakers } : {}),
    ...(options.maxSpeakers !== undefined ? { maxSpeakers: options.maxSpeakers } : {}),
  };
}

/** The language field: an ISO 639-1 code (or Whisper's 3-letter ones), `fr-medical`, or `auto`. */
export const transcriptionLanguageSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^([a-z]{2,3}|fr-medical|auto)$/, 'must be a language code such as en, fr, fr-medical, or auto');

/** Options of `POST /transcripts`, as query parameters (or multipart fields). */
export const transcribeQuerySchema = z
  .object({
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
    ...diarizationQueryFields,
    ...rawAudioQueryFields,
  })
  .superRefine(checkDiarizationOptions)
  .superRefine(checkRawAudioOptions);

/** What the speech engine can transcribe: `GET /speech/languages`. */
export const transcriptionLanguageEntrySchema = z
  .object({ code: z.string(), name: z.string(), isRealtimeSupported: z.boolean() })
  .meta({ id: 'TranscriptLanguage' });
export type TranscriptionLanguageEntry = z.infer<typeof transcriptionLanguageEntrySchema>;
