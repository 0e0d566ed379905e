import type { TranscriptStatus } from '@verbatim/contracts';
import type { ColumnType, Generated } from 'kysely';

/** PostgreSQL bigint: read as a string by the driver, written as a number. */
type BigIntColumn = ColumnType<string | number, number, number>;

export interface SubmittedFilesTable {
  id: string;
  account_id: string;
  api_key_id: string | null;
  file_name: string;
  media_type: string;
  size: BigIntColumn;
  sha1: string;
  received_bytes: ColumnType<string | number, number | undefined, number>;
  is_completed: ColumnType<boolean, boolean | undefined, boolean>;
  language_code: string;
  callback_url: string | null;
  status: ColumnType<TranscriptStatus, TranscriptStatus | undefined, TranscriptStatus>;
  progress: ColumnType<number, number | undefined, number>;
  duration_seconds: number | null;
  detected_language: string | null;
  failure_reason: string | null;
  attempts: ColumnType<number, number | undefined, number>;
  claim: string | null;
  heartbeat_at: Date | null;
  upload_lock: string | null;
  upload_lock_until: Date | null;
  created_at: Generated<Date>;
  completed_at: Date | null;
  processed_at: Date | null;
  /** A SendToCrmRequest (JSON) to queue when the transcript is done; null: none asked. */
  crm_request: string | null;
  /** The DiarizationRequest (JSON) of an upload that asked who speaks when; null: not diarized. */
  diarization: ColumnType<string | null, string | null | undefined, string | null>;
  /** Headerless PCM's format (RawPcmFormat as JSON); null: the recording has a header. */
  raw_pcm: ColumnType<string | null, string | null | undefined, string | null>;
  /** Names given to the transcript's speakers (`{"S1": "Anna"}` as JSON); null: none. */
  speaker_names: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface WebhookSecretsTable {
  account_id: string;
  secret: string;
  created_at: Generated<Date>;
}

export type WebhookMessageStatus = 'pending' | 'delivered' | 'failed';

export interface WebhookMessagesTable {
  id: string;
  account_id: string;
  file_id: string;
  url: string;
  payload: string;
  status: ColumnType<WebhookMessageStatus, WebhookMessageStatus | undefined, WebhookMessageStatus>;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: Date | null;
  created_at: Generated<Date>;
}

export interface WebhookAttemptsTable {
  id: string;
  message_id: string;
  attempt: number;
  at: Generated<Date>;
  url: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  succeeded: boolean;
  next_attempt_at: Date | null;
}
