import type { Db } from '../../platform/db/database.js';

export interface StoredSettings {
  transcriptLanguage: string;
}

const defaults: StoredSettings = { transcriptLanguage: 'en' };

/** The settings kept beside the account (its interface language lives on the account itself). */
export class SettingsRepository {
  constructor(private readonly db: Db) {}

  async find(accountId: string): Promise<StoredSettings> {
    const row = await this.db
      .selectFrom('account_settings')
      .select('transcript_language')
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return row ? { transcriptLanguage: row.transcript_language } : defaults;
  }

  async save(accountId: string, changes: Partial<StoredSettings>): Promise<void> {
    if (changes.transcriptLanguage === undefined) return;
    await this.db
      .insertInto('account_settings')
      .values({ account_id: accountId, transcript_language: changes.transcriptLanguage })
      .onConflict((conflict) =>
        conflict.column('account_id').doUpdateSet({
          transcript_language: changes.transcriptLanguage,
          updated_at: new Date(),
        }),
      )
      .execute();
  }
}
