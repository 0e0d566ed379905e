import type { Selectable } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { AccountTokenPurpose, AccountTokensTable } from './accounts.tables.js';

export type AccountToken = Selectable<AccountTokensTable>;

export class AccountTokensRepository {
  constructor(private readonly db: Db) {}

  async insert(token: {
    id: string;
    accountId: string;
    purpose: AccountTokenPurpose;
    tokenHash: string;
    expiresAt: Date;
    /** For an e-mail change: the address to confirm. */
    newEmail?: string;
  }): Promise<void> {
    await this.db
      .insertInto('account_tokens')
      .values({
        id: token.id,
        account_id: token.accountId,
        purpose: token.purpose,
        token_hash: token.tokenHash,
        new_email: token.newEmail ?? null,
        expires_at: token.expiresAt,
      })
      .execute();
  }

  /** Removes the account's unused tokens of this purpose: links already sent stop working. */
  async deleteUnused(accountId: string, purpose: AccountTokenPurpose): Promise<void> {
    await this.db
      .deleteFrom('account_tokens')
      .where('account_id', '=', accountId)
      .where('purpose', '=', purpose)
      .where('consumed_at', 'is', null)
      .execute();
  }

  /**
   * Marks the token used if it is unused and unexpired, in one statement: of two concurrent
   * calls, PostgreSQL lets the second re-check `consumed_at` after the first commits, so exactly
   * one gets the row.
   */
  consume(purpose: AccountTokenPurpose, tokenHash: string, now: Date): Promise<AccountToken | undefined> {
    return this.db
      .updateTable('account_tokens')
      .set({ consumed_at: now })
      .where('token_hash', '=', tokenHash)
      .where('purpose', '=', purpose)
      .where('consumed_at', 'is', null)
      .where('expires_at', '>', now)
      .returningAll()
      .executeTakeFirst();
  }

  find(purpose: AccountTokenPurpose, tokenHash: string): Promise<AccountToken | undefined> {
    return this.db
      .selectFrom('account_tokens')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .where('purpose', '=', purpose)
      .executeTakeFirst();
  }
}
