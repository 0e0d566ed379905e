import { sql, type Selectable } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { EmailMessagesTable } from './mail.tables.js';

export type EmailMessage = Selectable<EmailMessagesTable>;

export class MailRepository {
  constructor(private readonly db: Db) {}

  async insert(message: {
    id: string;
    purpose: string;
    recipient: string;
    subject: string;
    textBody: string;
    htmlBody: string | null;
  }): Promise<void> {
    await this.db
      .insertInto('email_messages')
      .values({
        id: message.id,
        purpose: message.purpose,
        recipient: message.recipient,
        subject: message.subject,
        text_body: message.textBody,
        html_body: message.htmlBody,
        last_error: null,
        transport_message_id: null,
      })
      .execute();
  }

  async find(id: string): Promise<EmailMessage | undefined> {
    return this.db.selectFrom('email_messages').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async markSent(id: string, transportMessageId: string): Promise<void> {
    await this.db
      .updateTable('email_messages')
      .set({
        status: 'sent',
        attempts: sql`attempts + 1`,
        transport_message_id: transportMessageId,
        sent_at: new Date(),
        last_error: null,
      })
      .where('id', '=', id)
      .execute();
  }

  async recordFailure(id: string, error: string, final: boolean): Promise<void> {
    await this.db
      .updateTable('email_messages')
      .set({
        attempts: sql`attempts + 1`,
        last_error: error,
        ...(final ? { status: 'failed' as const } : {}),
      })
      .where('id', '=', id)
      .execute();
  }
}
