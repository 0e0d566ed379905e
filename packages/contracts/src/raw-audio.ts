import { z } from 'zod';

/**
 * Headerless PCM (telephony systems, embedded recorders, the live socket's frames): the bytes say
 * nothing of themselves, so the caller says what they are.
 */
export const pcmEncodings = ['f32le', 's16le'] as const;
export const pcmEncodingSchema = z.enum(pcmEncodings, { error: 'encoding must be s16le or f32le' });
export type PcmEncoding = z.infer<typeof pcmEncodingSchema>;

export const minPcmSampleRate = 8000;
export const maxPcmSampleRate = 192_000;
const sampleRateMessage = `sampleRate must be a whole number of Hz between ${minPcmSampleRate} and ${maxPcmSampleRate}`;
export const pcmSampleRateSchema = z.coerce
  .number({ error: sampleRateMessage })
  .int(sampleRateMessage)
  .min(minPcmSampleRate, sampleRateMessage)
  .max(maxPcmSampleRate, sampleRateMessage);

export const maxPcmChannels = 8;
const channelsMessage = `channels must be a whole number between 1 and ${maxPcmChannels}`;

/**
 * The options that describe a headerless recording (query parameters or form fields of a
 * transcription request). Checked together by {@link checkRawAudioOptions}.
 */
export const rawAudioQueryFields = {
  encoding: pcmEncodingSchema
    .optional()
    .describe(
      'Only for headerless PCM (raw samples, no WAV or other header): s16le (16-bit signed) or f32le (32-bit float), little-endian, channels interleaved. Needs sampleRate. Omitted: the recording’s own header says what it is.',
    )
    .meta({ examples: ['s16le'] }),
  sampleRate: pcmSampleRateSchema
    .optional()
    .describe(
      `Samples per second of headerless PCM (${minPcmSampleRate}–${maxPcmSampleRate}); needs encoding.`,
    )
    .meta({ examples: [8000] }),
  channels: z.coerce
    .number({ error: channelsMessage })
    .int(channelsMessage)
    .min(1, channelsMessage)
    .max(maxPcmChannels, channelsMessage)
    .optional()
    .describe(
      `Channels of headerless PCM (1–${maxPcmChannels}, default 1), mixed down to mono; needs encoding.`,
    ),
};

export interface RawAudioOptions {
  encoding?: PcmEncoding | undefined;
  sampleRate?: number | undefined;
  channels?: number | undefined;
}

/** encoding and sampleRate come together; channels only with them. */
export function checkRawAudioOptions(value: RawAudioOptions, context: z.RefinementCtx): void {
  if (value.encoding !== undefined && value.sampleRate === undefined) {
    context.addIssue({
      code: 'custom',
      path: ['sampleRate'],
      message: 'sampleRate is needed with encoding (headerless PCM).',
    });
  }
  if (value.encoding === undefined && (value.sampleRate !== undefined || value.channels !== undefined)) {
    context.addIssue({
      code: 'custom',
      path: ['encoding'],
      message: `encoding (s16le or f32le) is needed with ${value.sampleRate !== undefined ? 'sampleRate' : 'channels'} (headerless PCM).`,
    });
  }
}

/** A headerless recording's format as it is kept with a queued job (and read back by the worker). */
export const rawPcmFormatSchema = z.object({
  encoding: pcmEncodingSchema,
  sampleRate: pcmSampleRateSchema,
  channels: z.number().int().min(1).max(maxPcmChannels),
});
export type RawPcmFormat = z.infer<typeof rawPcmFormatSchema>;

/** What the engine is told about a headerless recording; undefined for a recording with a header. */
export function rawPcmFormatOf(options: RawAudioOptions): RawPcmFormat | undefined {
  if (options.encoding === undefined || options.sampleRate === undefined) return undefined;
  return { encoding: options.encoding, sampleRate: options.sampleRate, channels: options.channels ?? 1 };
}
