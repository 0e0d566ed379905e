import {
  interfaceLanguageSchema,
  recordingExtensionSchema,
  type Settings,
  transcriptDeletionDays,
  transcriptLanguageSchema,
} from '@verbatim/contracts';
import { z } from 'zod';
import type { SettingsChanges } from './configurationApi';

/** A select's value is a string: `never` stands for "no automatic deletion" (null in the API). */
export const neverDeleteValue = 'never';

const deletionValues: readonly string[] = [neverDeleteValue, ...transcriptDeletionDays.map(String)];

export const configurationFormSchema = z.object({
  language: interfaceLanguageSchema,
  transcriptLanguage: transcriptLanguageSchema,
  deletion: z.string().refine((value) => deletionValues.includes(value), 'Invalid deletion period'),
  recordingExtension: recordingExtensionSchema,
  diarize: z.boolean(),
});
export type ConfigurationFormValues = z.infer<typeof configurationFormSchema>;

export function deletionValue(days: number | null): string {
  return days === null ? neverDeleteValue : String(days);
}

export function formValuesOf(settings: Settings): ConfigurationFormValues {
  return {
    language: settings.language,
    transcriptLanguage: settings.transcripts.language,
    deletion: deletionValue(settings.transcripts.deletionAfterDays),
    recordingExtension: settings.recordingExtension,
    diarize: settings.transcripts.diarize,
  };
}

/** Only what differs from the saved settings is sent. */
export function changesBetween(saved: Settings, form: ConfigurationFormValues): SettingsChanges {
  const deletionAfterDays = transcriptDeletionDays.find((days) => String(days) === form.deletion) ?? null;
  const transcripts = {
    ...(form.transcriptLanguage !== saved.transcripts.language ? { language: form.transcriptLanguage } : {}),
    ...(deletionAfterDays !== saved.transcripts.deletionAfterDays ? { deletionAfterDays } : {}),
    ...(form.diarize !== saved.transcripts.diarize ? { diarize: form.diarize } : {}),
  };
  const settings = {
    ...(form.language !== saved.language ? { language: form.language } : {}),
    ...(Object.keys(transcripts).length > 0 ? { transcripts } : {}),
  };
  return {
    ...(Object.keys(settings).length > 0 ? { settings } : {}),
    ...(form.recordingExtension !== saved.recordingExtension
      ? { recordingExtension: form.recordingExtension }
      : {}),
  };
}
