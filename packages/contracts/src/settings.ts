import { z } from 'zod';
import { creditsSchema } from './credits.js';

/** Languages of the console (and of the e-mails and sign-in pages). */
export const interfaceLanguageSchema = z.enum(['en', 'fr'], { error: 'Invalid language' });
export type InterfaceLanguage = z.infer<typeof interfaceLanguageSchema>;

/** A transcription language code such as `en`, `en-US` or `fr-medical` (spec §3). */
export const transcriptLanguageSchema = z
  .string({ error: 'Invalid language' })
  .trim()
  .min(2, 'Invalid language')
  .max(20, 'Invalid language')
  .regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,12})*$/, 'Invalid language');

/**
 * The periods after which transcripts and their recordings are deleted automatically, in days
 * (spec §1, §9: "after a chosen period"); `null` keeps them until the user deletes them.
 */
export const transcriptDeletionDays = [1, 7, 30, 90, 365] as const;
export type TranscriptDeletionDays = (typeof transcriptDeletionDays)[number];

export const invalidDeletionPeriodMessage = 'Invalid deletion period';

export const transcriptDeletionPeriodSchema = z
  .literal(transcriptDeletionDays, { error: invalidDeletionPeriodMessage })
  .nullable()
  .describe('Days after which transcripts and recordings are deleted; null: never.');
export type TranscriptDeletionPeriod = z.infer<typeof transcriptDeletionPeriodSchema>;

/** `GET /settings/transcript-deletion`: one period offered, named in the interface language. */
export const transcriptDeletionOptionSchema = z
  .object({ days: z.int().positive().nullable(), name: z.string() })
  .meta({ id: 'TranscriptDeletionOption' });
export type TranscriptDeletionOption = z.infer<typeof transcriptDeletionOptionSchema>;

/**
 * The audio formats in which a live session's recording is kept when the user asks to keep it:
 * `ogg` (Opus in Ogg, the default: small and good for speech), `webm` (Opus in WebM), `wav`
 * (16-bit PCM, lossless and large), `flac` (lossless, compressed), `mp3`.
 */
export const recordingExtensions = ['ogg', 'webm', 'wav', 'flac', 'mp3'] as const;
export const invalidRecordingExtensionMessage = 'Invalid recording extension';
export const recordingExtensionSchema = z.enum(recordingExtensions, {
  error: invalidRecordingExtensionMessage,
});
export type RecordingExtension = z.infer<typeof recordingExtensionSchema>;

/**
 * The account's settings (spec §3 Settings). `language` is the interface language (the profile
 * reads the same value); `transcripts.language` the default language of new transcriptions,
 * `transcripts.deletionAfterDays` when transcripts and recordings are deleted automatically,
 * `transcripts.diarize` whether uploads tell who speaks when by default;
 * `recordingExtension` the format of kept live recordings; `calls` counts the metered calls made
 * with the account (there is no ceiling on their number); `thirdPartyApi.credits` is the prepaid
 * credit, in cents.
 */
export const settingsSchema = z
  .object({
    language: interfaceLanguageSchema,
    transcripts: z.object({
      language: z.string(),
      deletionAfterDays: transcriptDeletionPeriodSchema,
      /** Uploads tell who speaks when unless they say otherwise (`diarize` of POST /media/recordings). */
      diarize: z.boolean(),
    }),
    recordingExtension: recordingExtensionSchema,
    calls: z.object({ ceiling: z.int().nullable(), currentUsage: z.int().nonnegative() }),
    thirdPartyApi: z.object({ credits: creditsSchema }),
  })
  .meta({ id: 'Settings' });
export type Settings = z.infer<typeof settingsSchema>;

/**
 * `PUT /settings`: the editable settings. Fields left out keep their value, and the read-only ones
 * (`calls`, `thirdPartyApi`) are ignored, as is `recordingExtension` (changed by its own call), so
 * a client may send back what `GET /settings` gave it.
 */
export const updateSettingsRequestSchema = z
  .object({
    language: interfaceLanguageSchema.optional(),
    transcripts: z
      .object({
        language: transcriptLanguageSchema.optional(),
        deletionAfterDays: transcriptDeletionPeriodSchema.optional(),
        diarize: z.boolean().optional(),
      })
      .optional(),
  })
  .meta({ id: 'UpdateSettingsRequest' });
export type UpdateSettingsRequest = z.input<typeof updateSettingsRequestSchema>;

/** `PUT /settings/recording-extension`. */
export const updateRecordingExtensionRequestSchema = z
  .object({ extension: recordingExtensionSchema })
  .meta({ id: 'UpdateRecordingExtensionRequest' });
export type UpdateRecordingExtensionRequest = z.infer<typeof updateRecordingExtensionRequestSchema>;

/** `GET /settings/transcript-languages` and `/settings/transcript-deletion`: names in this language. */
export const settingsLocaleQuerySchema = z.object({
  locale: interfaceLanguageSchema
    .optional()
    .describe("Language of the names; the account's interface language when left out."),
});
