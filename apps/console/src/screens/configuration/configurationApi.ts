import {
  type InterfaceLanguage,
  type RecordingExtension,
  type Settings,
  settingsSchema,
  transcriptDeletionOptionSchema,
  transcriptionLanguageEntrySchema,
  type UpdateSettingsRequest,
} from '@verbatim/contracts';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../api/apiClient';

/** The languages the server's models transcribe, named in `locale` (spec §3 Transcript languages). */
export function transcriptLanguagesQuery(locale: InterfaceLanguage) {
  return queryOptions({
    queryKey: ['settings', 'transcript-languages', locale],
    queryFn: ({ signal }) =>
      apiRequest(`/settings/transcript-languages?locale=${locale}`, {
        schema: z.array(transcriptionLanguageEntrySchema),
        signal,
      }),
  });
}

/** The automatic deletion periods offered, named in `locale`. */
export function deletionOptionsQuery(locale: InterfaceLanguage) {
  return queryOptions({
    queryKey: ['settings', 'transcript-deletion', locale],
    queryFn: ({ signal }) =>
      apiRequest(`/settings/transcript-deletion?locale=${locale}`, {
        schema: z.array(transcriptDeletionOptionSchema),
        signal,
      }),
  });
}

export function updateRecordingExtension(extension: RecordingExtension): Promise<Settings> {
  return apiRequest('/settings/recording-extension', {
    method: 'PUT',
    schema: settingsSchema,
    body: { extension },
  });
}

/** What the configuration form changes: `PUT /settings` fields and the recording format. */
export interface SettingsChanges {
  settings?: UpdateSettingsRequest;
  recordingExtension?: RecordingExtension;
}
