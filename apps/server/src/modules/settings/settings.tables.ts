import type { ColumnType } from 'kysely';

/** Settings kept beside the account; a missing row means every default. */
export interface AccountSettingsTable {
  account_id: string;
  transcript_language: ColumnType<string, string | undefined, string>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}
