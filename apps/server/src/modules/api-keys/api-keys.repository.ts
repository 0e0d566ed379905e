import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { Account } from '../accounts/accounts.repository.js';
import type { ApiKeysTable } from './api-keys.tables.js';

export type ApiKeyRecord = Selectable<ApiKeysTable>;

export class ApiKeysRepository {
  constructor(private readonly db: Db) {}

  insert(key: Omit<Insertable<ApiKeysTable>, 'created_at'>): Promise<ApiKeyRecord> {
    return this.db.insertInto('api_keys').values(key).returningAll().executeTakeFirstOrThrow();
  }

  /** The key with this secret hash and its account, in one query (this runs on every API request). */
  async findWithAccountByHash(
    secretHash: string,
  ): Promise<{ key: ApiKeyRecord; account: Account } | undefined> {
    const row = await this.db
      .selectFrom('api_keys')
      .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
      .selectAll('accounts')
      .select([
        'api_keys.id as key_id',
        'api_keys.name as key_name',
        'api_keys.prefix as key_prefix',
        'api_keys.secret_hash as key_secret_hash',
        'api_keys.monthly_cap_cents as key_monthly_cap_cents',
        'api_keys.expires_at as key_expires_at',
        'api_keys.last_used_at as key_last_used_at',
        'api_keys.revoked_at as key_revoked_at',
        'api_keys.created_at as key_created_at',
      ])
      .where('api_keys.secret_hash', '=', secretHash)
      .executeTakeFirst();
    if (!row) return undefined;
    const {
      key_id,
      key_name,
      key_prefix,
      key_secret_hash,
      key_monthly_cap_cents,
      key_expires_at,
      key_last_used_at,
      key_revoked_at,
      key_created_at,
      ...account
    } = row;
    return {
      account,
      key: {
        id: key_id,
        account_id: account.id,
        name: key_name,
        prefix: key_prefix,
        secret_hash: key_secret_hash,
        monthly_cap_cents: key_monthly_cap_cents,
        expires_at: key_expires_at,
        last_used_at: key_last_used_at,
        revoked_at: key_revoked_at,
        created_at: key_created_at,
      },
    };
  }

  /** The account's keys that are not revoked (expired ones included), newest first. */
  listUnrevoked(accountId: string): Promise<ApiKeyRecord[]> {
    return this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('revoked_at', 'is', null)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  async countUnrevoked(accountId: string): Promise<number> {
    const row = await this.db
      .selectFrom('api_keys')
      .select(sql<number>`count(*)::bigint`.as('count'))
      .where('account_id', '=', accountId)
      .where('revoked_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /**
   * Revokes one of the account's keys; a key already revoked keeps its first revocation time.
   * Undefined when the account has no key with this id.
   */
  async revoke(accountId: string, id: string): Promise<ApiKeyRecord | undefined> {
    return this.db
      .updateTable('api_keys')
      .set({ revoked_at: sql<Date>`coalesce(revoked_at, now())` })
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .returningAll()
      .executeTakeFirst();
  }

  /** Records a use; skipped by the caller when the last one is recent, so keys cost no write per request. */
  async touch(id: string, at: Date): Promise<void> {
    await this.db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
  }
}
