import type { MeteredProduct } from '@verbatim/contracts';
import { sql, type Insertable, type Selectable } from 'kysely';
import { newId } from '../../lib/ids.js';
import type { Db } from '../../platform/db/database.js';
import type { LedgerEntriesTable } from './ledger.tables.js';

export type LedgerEntry = Selectable<LedgerEntriesTable>;
export type NewLedgerEntry = Omit<Insertable<LedgerEntriesTable>, 'id' | 'created_at'>;

export interface LedgerTotals {
  /** Everything credited, in micro-dollars. */
  creditedMicros: number;
  /** Everything used, in micro-dollars (a positive number). */
  usedMicros: number;
  /** Usage entries (metered calls). */
  usageCount: number;
}

export interface ProductUsage {
  product: MeteredProduct;
  seconds: number;
  calls: number;
  usedMicros: number;
}

/** The reference of the starting credit: one per account. */
export const startingCreditReference = 'starting-credit';

/**
 * Queries of the ledger, bound to a connection or a transaction. Sums are cast to bigint, which
 * both database pools hand over as numbers.
 */
export class LedgerRepository {
  constructor(private readonly db: Db) {}

  /**
   * Locks the account's row until the transaction ends, which serialises every charge and credit
   * of one account across connections and processes. NO KEY UPDATE: other tables may still insert
   * rows that reference the account meanwhile. False when there is no such account.
   */
  async lockAccount(accountId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('accounts')
      .select('id')
      .where('id', '=', accountId)
      .forNoKeyUpdate()
      .executeTakeFirst();
    return row !== undefined;
  }

  async insert(entry: NewLedgerEntry): Promise<LedgerEntry> {
    return this.db
      .insertInto('ledger_entries')
      .values({ id: newId('led'), ...entry })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  findByReference(accountId: string, reference: string): Promise<LedgerEntry | undefined> {
    return this.db
      .selectFrom('ledger_entries')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('reference', '=', reference)
      .executeTakeFirst();
  }

  async balanceMicros(accountId: string): Promise<number> {
    const row = await this.db
      .selectFrom('ledger_entries')
      .select(sql<number>`coalesce(sum(amount_micros), 0)::bigint`.as('balance'))
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    return Number(row.balance);
  }

  async totals(accountId: string): Promise<LedgerTotals> {
    const row = await this.db
      .selectFrom('ledger_entries')
      .select([
        sql<number>`coalesce(sum(amount_micros) filter (where kind <> 'usage'), 0)::bigint`.as('credited'),
        sql<number>`coalesce(-sum(amount_micros) filter (where kind = 'usage'), 0)::bigint`.as('used'),
        sql<number>`count(*) filter (where kind = 'usage')::bigint`.as('usage_count'),
      ])
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    return {
      creditedMicros: Number(row.credited),
      usedMicros: Number(row.used),
      usageCount: Number(row.usage_count),
    };
  }

  async usageByProduct(accountId: string): Promise<ProductUsage[]> {
    const rows = await this.db
      .selectFrom('ledger_entries')
      .select([
        'product',
        sql<number>`sum(billed_seconds)::bigint`.as('seconds'),
        sql<number>`count(*)::bigint`.as('calls'),
        sql<number>`(-sum(amount_micros))::bigint`.as('used'),
      ])
      .where('account_id', '=', accountId)
      .where('kind', '=', 'usage')
      .groupBy('product')
      .execute();
    return rows.flatMap((row) =>
      row.product
        ? [
            {
              product: row.product,
              seconds: Number(row.seconds),
              calls: Number(row.calls),
              usedMicros: Number(row.used),
            },
          ]
        : [],
    );
  }

  /** What one key has spent since `since`, in micro-dollars. */
  async spentByKeySince(apiKeyId: string, since: Date): Promise<number> {
    const row = await this.db
      .selectFrom('ledger_entries')
      .select(sql<number>`coalesce(-sum(amount_micros), 0)::bigint`.as('spent'))
      .where('api_key_id', '=', apiKeyId)
      .where('kind', '=', 'usage')
      .where('created_at', '>=', since)
      .executeTakeFirstOrThrow();
    return Number(row.spent);
  }

  /** What each key of the account has spent since `since`, in micro-dollars; keys without usage are absent. */
  async spentByKeysSince(accountId: string, since: Date): Promise<Map<string, number>> {
    const rows = await this.db
      .selectFrom('ledger_entries')
      .select(['api_key_id', sql<number>`(-sum(amount_micros))::bigint`.as('spent')])
      .where('account_id', '=', accountId)
      .where('kind', '=', 'usage')
      .where('api_key_id', 'is not', null)
      .where('created_at', '>=', since)
      .groupBy('api_key_id')
      .execute();
    return new Map(rows.flatMap((row) => (row.api_key_id ? [[row.api_key_id, Number(row.spent)]] : [])));
  }
}

/** The first instant of the calendar month (UTC) that `now` falls in: the period of a key's cap. */
export function monthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}
