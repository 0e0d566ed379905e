import type { ColumnType, Generated } from 'kysely';

export type EmailStatus = 'queued' | 'sent' | 'failed';

export interface EmailMessagesTable {
  id: string;
  /** What the message is for (verification, recovery, test…): for support and metrics. */
  purpose: string;
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  status: ColumnType<EmailStatus, EmailStatus | undefined, EmailStatus>;
  attempts: Generated<number>;
  last_error: string | null;
  transport_message_id: string | null;
  created_at: ColumnType<Date, never, never>;
  sent_at: ColumnType<Date | null, never, Date | null>;
}
