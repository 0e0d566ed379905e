import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // A job sent as headerless PCM: what its bytes are ({"encoding":"s16le","sampleRate":8000,
  // "channels":1} as JSON), which the bytes cannot tell the worker; null: a recording with a header.
  await sql`alter table submitted_files add column raw_pcm text`.execute(db);
}
