import { z } from 'zod';

/**
 * The OpenAI-compatible transcription route (`POST /audio/transcriptions`): the fields of OpenAI's
 * API reference, so that OpenAI SDK clients work by changing their base URL.
 */
export const openAiResponseFormats = ['json', 'text', 'srt', 'verbose_json', 'vtt', 'diarized_json'] as const;

export const openAiTranscriptionFieldsSchema = z.object({
  model: z
    .string()
    .max(100)
    .default('whisper-1')
    .describe('Accepted for compatibility (whisper-1, or a local model name).'),
  language: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^([a-z]{2,3}|fr-medical)$/, 'must be an ISO 639-1 language code such as en')
    .optional(),
  prompt: z.string().max(1000).optional(),
  response_format: z.enum(openAiResponseFormats).default('json'),
  temperature: z.coerce.number().min(0).max(1).default(0),
  'timestamp_granularities[]': z.array(z.enum(['word', 'segment'])).optional(),
});
export type OpenAiTranscriptionFields = z.infer<typeof openAiTranscriptionFieldsSchema>;

export const openAiWordSchema = z.object({ word: z.string(), start: z.number(), end: z.number() });
export const openAiSegmentSchema = z.object({
  id: z.int(),
  seek: z.int(),
  start: z.number(),
  end: z.number(),
  text: z.string(),
  tokens: z.array(z.int()),
  temperature: z.number(),
  avg_logprob: z.number(),
  compression_ratio: z.number(),
  no_speech_prob: z.number(),
});

export const openAiTranscriptionSchema = z
  .object({ text: z.string() })
  .meta({ id: 'OpenAiTranscription', examples: [{ text: 'Ask not what your country can do for you.' }] });

export const openAiVerboseTranscriptionSchema = z
  .object({
    task: z.literal('transcribe'),
    language: z.string(),
    duration: z.number(),
    text: z.string(),
    segments: z.array(openAiSegmentSchema).optional(),
    words: z.array(openAiWordSchema).optional(),
  })
  .meta({ id: 'OpenAiVerboseTranscription' });

/** One segment of OpenAI's `diarized_json`: one speaker's text between two times. */
export const openAiDiarizedSegmentSchema = z.object({
  type: z.literal('transcript.text.segment'),
  id: z.string(),
  start: z.number(),
  end: z.number(),
  text: z.string(),
  /** The speaker's name when it was renamed, else its id (S1, S2…). */
  speaker: z.string(),
});

/**
 * `response_format=diarized_json`: OpenAI's diarized transcription (as `gpt-4o-transcribe-diarize`
 * answers it), segments labelled with their speaker; usage in seconds of audio.
 */
export const openAiDiarizedTranscriptionSchema = z
  .object({
    task: z.literal('transcribe'),
    duration: z.number(),
    text: z.string(),
    segments: z.array(openAiDiarizedSegmentSchema),
    usage: z.object({ type: z.literal('duration'), seconds: z.number() }).optional(),
  })
  .meta({
    id: 'OpenAiDiarizedTranscription',
    examples: [
      {
        task: 'transcribe',
        duration: 6.2,
        text: 'Are you coming tonight? Yes, at eight.',
        segments: [
          {
            type: 'transcript.text.segment',
            id: 'seg_0',
            start: 0.4,
            end: 2.1,
            text: 'Are you coming tonight?',
            speaker: 'S1',
          },
          {
            type: 'transcript.text.segment',
            id: 'seg_1',
            start: 2.6,
            end: 4.0,
            text: 'Yes, at eight.',
            speaker: 'S2',
          },
        ],
        usage: { type: 'duration', seconds: 7 },
      },
    ],
  });

/** OpenAI's error body, answered beside the product's own `{code, message}`. */
export const openAiErrorSchema = z
  .object({
    code: z.string(),
    message: z.string(),
    error: z.object({
      message: z.string(),
      type: z.string(),
      param: z.string().nullable(),
      code: z.string().nullable(),
    }),
  })
  .meta({ id: 'OpenAiError' });
