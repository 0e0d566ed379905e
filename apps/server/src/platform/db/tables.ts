import type { EmailMessagesTable } from '../../modules/mail/mail.tables.js';

/** Every table, as Kysely sees it. Each module declares its own tables beside its repository. */
export interface Tables {
  email_messages: EmailMessagesTable;
}
