import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // When transcripts and their recordings are deleted automatically (null: never), and the audio
  // format in which kept live recordings are stored. The allowed values are those the settings
  // contract offers; a missing row still means every default.
  await sql`
    alter table account_settings
      add column transcript_deletion_days integer
        check (transcript_deletion_days in (1, 7, 30, 90, 365)),
      add column recording_extension text not null default 'ogg'
        check (recording_extension in ('ogg', 'webm', 'wav', 'flac', 'mp3'))
  `.execute(db);
  // The scheduled deletion visits only the accounts that chose a period.
  await sql`
    create index account_settings_deletion on account_settings (transcript_deletion_days)
    where transcript_deletion_days is not null
  `.execute(db);
}
