import type { ColumnType } from 'kysely';

/** Settings kept beside the account; a missing row means every default. */
export interface AccountSettingsTable {
  account_id: string;
  transcript_language: ColumnType<string, string | undefined, string>;
  /** 1, 7, 30, 90 or 365; null: transcripts are never deleted automatically. */
  transcript_deletion_days: ColumnType<number | null, number | null | undefined, number | null>;
  recording_extension: ColumnType<string, string | undefined, string>;
  /** Uploads tell who speaks when unless they say otherwise. */
  transcript_diarize: ColumnType<boolean, boolean | undefined, boolean>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}
