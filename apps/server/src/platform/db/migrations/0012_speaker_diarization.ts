import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // An upload that asked who speaks when: its diarization options (DiarizationRequest as JSON,
  // `{}` without counts) for the worker; null: not diarized.
  await sql`alter table submitted_files add column diarization text`.execute(db);
  // Names given to the speakers of a diarized transcript ({"S1": "Anna"} as JSON); null: none yet.
  await sql`alter table submitted_files add column speaker_names text`.execute(db);
  // Uploads tell who speaks when unless they say otherwise.
  await sql`alter table account_settings add column transcript_diarize boolean not null default false`.execute(
    db,
  );
}
