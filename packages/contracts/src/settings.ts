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
 * The account's settings (spec §3 Settings). `language` is the interface language (the profile
 * reads the same value); `transcripts.language` the default language of new transcriptions;
 * `calls` counts the metered calls made with the account (there is no ceiling on their number);
 * `thirdPartyApi.credits` is the prepaid credit, in cents.
 */
export const settingsSchema = z
  .object({
    language: interfaceLanguageSchema,
    transcripts: z.object({ language: z.string() }),
    calls: z.object({ ceiling: z.int().nullable(), currentUsage: z.int().nonnegative() }),
    thirdPartyApi: z.object({ credits: creditsSchema }),
  })
  .meta({ id: 'Settings' });
export type Settings = z.infer<typeof settingsSchema>;

/**
 * `PUT /settings`: the editable settings. Fields left out keep their value, and the read-only ones
 * (`calls`, `thirdPartyApi`) are ignored, so a client may send back what `GET /settings` gave it.
 */
export const updateSettingsRequestSchema = z
  .object({
    language: interfaceLanguageSchema.optional(),
    transcripts: z.object({ language: transcriptLanguageSchema.optional() }).optional(),
  })
  .meta({ id: 'UpdateSettingsRequest' });
export type UpdateSettingsRequest = z.input<typeof updateSettingsRequestSchema>;
