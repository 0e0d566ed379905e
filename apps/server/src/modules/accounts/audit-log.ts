import { newId } from '../../lib/ids.js';
import type { Db } from '../../platform/db/database.js';

/** What happened, for the account's security history. */
export type AuditEventKind =
  | 'account.registered'
  | 'account.email_verified'
  | 'account.approved'
  | 'account.deactivated'
  | 'signin.succeeded'
  | 'signin.failed'
  | 'signin.throttled'
  | 'password.changed'
  | 'password.recovery_requested'
  | 'password.recovered'
  | 'profile.updated'
  | 'email.change_requested'
  | 'email.changed'
  | 'api_key.created'
  | 'api_key.revoked'
  | 'settings.updated';

export interface AuditContext {
  ip?: string | null;
  userAgent?: string | null;
}

export class AuditLog {
  constructor(private readonly db: Db) {}

  async record(
    kind: AuditEventKind,
    accountId: string | null,
    context: AuditContext = {},
    detail: Record<string, unknown> = {},
  ): Promise<void> {
    await this.db
      .insertInto('audit_events')
      .values({
        id: newId('aud'),
        account_id: accountId,
        kind,
        ip: context.ip ?? null,
        user_agent: context.userAgent?.slice(0, 512) ?? null,
        detail: JSON.stringify(detail),
      })
      .execute();
  }
}
