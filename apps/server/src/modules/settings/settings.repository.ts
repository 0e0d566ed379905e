import {
  recordingExtensionSchema,
  transcriptDeletionPeriodSchema,
  type RecordingExtension,
  type TranscriptDeletionPeriod,
} from '@verbatim/contracts';
import type { Db } from '../../platform/db/database.js';

export interface StoredSettings {
  transcriptLanguage: string;
  /** Days after which transcripts and recordings are deleted; null: never. */
  deletionAfterDays: TranscriptDeletionPeriod;
  recordingExtension: RecordingExtension;
  /** Uploads tell who speaks when unless they say otherwise. */
  diarize: boolean;
}

/** What an account that never saved its settings has (and what the table's defaults say). */
export const defaultSettings: Readonly<StoredSettings> = {
  transcriptLanguage: 'en',
  deletionAfterDays: null,
  recordingExtension: 'ogg',
  diarize: false,
};

/** The settings kept beside the account (its interface language lives on the account itself). */
export class SettingsRepository {
  constructor(private readonly db: Db) {}

  async find(accountId: string): Promise<StoredSettings> {
    const row = await this.db
      .selectFrom('account_settings')
      .select([
        'transcript_language',
        'transcript_deletion_days',
        'recording_extension',
        'transcript_diarize',
      ])
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    if (!row) return { ...defaultSettings };
    // The table's check constraints hold the same values as the contract; parsing narrows the types.
    return {
      transcriptLanguage: row.transcript_language,
      deletionAfterDays: transcriptDeletionPeriodSchema.parse(row.transcript_deletion_days),
      recordingExtension: recordingExtensionSchema.parse(row.recording_extension),
      diarize: row.transcript_diarize,
    };
  }

  /** Writes the given fields, creating the row with the defaults for the others. */
  async save(accountId: string, changes: Partial<StoredSettings>): Promise<void> {
    const columns = {
      ...(changes.transcriptLanguage !== undefined
        ? { transcript_language: changes.transcriptLanguage }
        : {}),
      ...(changes.deletionAfterDays !== undefined
        ? { transcript_deletion_days: changes.deletionAfterDays }
        : {}),
      ...(changes.recordingExtension !== undefined
        ? { recording_extension: changes.recordingExtension }
        : {}),
      ...(changes.diarize !== undefined ? { transcript_diarize: changes.diarize } : {}),
    };
    if (Object.keys(columns).length === 0) return;
    await this.db
      .insertInto('account_settings')
      .values({ account_id: accountId, ...columns })
      .onConflict((conflict) =>
        conflict.column('account_id').doUpdateSet({ ...columns, updated_at: new Date() }),
      )
      .execute();
  }
}
