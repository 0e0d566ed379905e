import type { Migration } from 'kysely';
import * as m0001 from './0001_email_messages.js';
import * as m0002 from './0002_accounts.js';
import * as m0003 from './0003_identity_provider.js';
import * as m0004 from './0004_api_keys_and_ledger.js';
import * as m0005 from './0005_payments_and_invoices.js';
import * as m0006 from './0006_account_settings_retention_and_recordings.js';
import * as m0007 from './0007_submitted_files.js';
import * as m0008 from './0008_licences.js';
import * as m0009 from './0009_crm_integrations.js';
import * as m0011 from './0011_crm_upload_requests_and_text_deliveries.js';
import * as m0012 from './0012_speaker_diarization.js';
import * as m0013 from './0013_headerless_pcm_jobs.js';

/**
 * Every migration, in the order it runs. Append-only: never edit or remove an entry once it has
 * landed (migrations.test.ts compares each file with its recorded checksum).
 */
export const migrations: Record<string, Migration> = {
  '0001_email_messages': m0001,
  '0002_accounts': m0002,
  '0003_identity_provider': m0003,
  '0004_api_keys_and_ledger': m0004,
  '0005_payments_and_invoices': m0005,
  '0006_account_settings_retention_and_recordings': m0006,
  '0007_submitted_files': m0007,
  '0008_licences': m0008,
  '0009_crm_integrations': m0009,
  '0011_crm_upload_requests_and_text_deliveries': m0011,
  '0012_speaker_diarization': m0012,
  '0013_headerless_pcm_jobs': m0013,
};
