import type { AccountStatus } from '@verbatim/contracts';
import { sql, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import { LedgerRepository, startingCreditReference } from '../credits/ledger.repository.js';
import { centsToMicros } from '../credits/pricing.js';
import type { AccountsTable } from './accounts.tables.js';

export type Account = Selectable<AccountsTable>;

export interface NewAccount {
  id: string;
  email: string;
  passwordHash: string | null;
  fullName?: string | null;
  status: AccountStatus;
  emailVerifiedAt?: Date | null;
  registeredAs?: string;
  /**
   * Free credit to try the product, recorded in the account's ledger in the same transaction
   * (the `accounts.startingCreditCents` setting; 0 for none).
   */
  startingCreditCents: number;
}

/** Unique violation on accounts_email_unique: the address is taken (case-insensitively). */
export class EmailTakenError extends Error {}

export class AccountsRepository {
  constructor(private readonly db: Db) {}

  /** Creates the account and its starting credit, atomically (in the caller's transaction, if any). */
  async insert(account: NewAccount): Promise<Account> {
    if (!this.db.isTransaction) {
      return this.db.transaction().execute((trx) => new AccountsRepository(trx).insert(account));
    }
    const created = await this.#insertAccount(account);
    if (account.startingCreditCents > 0) {
      await new LedgerRepository(this.db).insert({
        account_id: created.id,
        kind: 'starting_credit',
        amount_micros: centsToMicros(account.startingCreditCents),
        product: null,
        billed_seconds: null,
        price_micros_per_hour: null,
        api_key_id: null,
        reference: startingCreditReference,
      });
    }
    return created;
  }

  async #insertAccount(account: NewAccount): Promise<Account> {
    try {
      return await this.db
        .insertInto('accounts')
        .values({
          id: account.id,
          email: account.email,
          password_hash: account.passwordHash,
          full_name: account.fullName ?? null,
          status: account.status,
          email_verified_at: account.emailVerifiedAt ?? null,
          ...(account.registeredAs ? { registered_as: account.registeredAs } : {}),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    } catch (error) {
      if ((error as { code?: unknown }).code === '23505')
        throw new EmailTakenError(account.email, { cause: error });
      throw error;
    }
  }

  findById(id: string): Promise<Account | undefined> {
    return this.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Every account, oldest first, optionally only those in one status. */
  list(status?: AccountStatus): Promise<Account[]> {
    let query = this.db.selectFrom('accounts').selectAll();
    if (status) query = query.where('status', '=', status);
    return query.orderBy('created_at').orderBy('id').execute();
  }

  findByEmail(email: string): Promise<Account | undefined> {
    return this.db
      .selectFrom('accounts')
      .selectAll()
      .where(sql<string>`lower(email)`, '=', email.toLowerCase())
      .executeTakeFirst();
  }

  async update(
    id: string,
    changes: Omit<Updateable<AccountsTable>, 'id' | 'created_at' | 'updated_at'>,
  ): Promise<Account | undefined> {
    try {
      return await this.db
        .updateTable('accounts')
        .set({ ...changes, updated_at: new Date() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
    } catch (error) {
      if ((error as { code?: unknown }).code === '23505')
        throw new EmailTakenError(String(changes.email), { cause: error });
      throw error;
    }
  }
}
