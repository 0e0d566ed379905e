import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // An upload may ask for its transcript to be sent to a CRM contact once done: the request
  // (SendToCrmRequest as JSON) is kept with the file until the delivery is queued.
  await sql`alter table submitted_files add column crm_request text`.execute(db);
  // A delivery of a text that is not a stored transcript (a live session's text): the text and its
  // title are kept with the delivery, so that retries send the same thing.
  await sql`alter table crm_deliveries add column source_text text`.execute(db);
  await sql`alter table crm_deliveries add column source_title text`.execute(db);
}
