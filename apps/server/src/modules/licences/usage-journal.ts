import { randomUUID } from 'node:crypto';
import type { UsageBatch } from '@verbatim/contracts';
import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';

export interface JournalEntry {
  reference: string;
  accountId: string;
  product: string;
  /** Whole seconds (each started second counts). */
  seconds: number;
}

/** Entries per batch: a batch is one request and one row on the licence server. */
const batchSize = 1000;

/**
 * The on-premise edition's local journal of finished work. An entry is written in the transaction
 * that records the work's completion; entries are then sealed into batches with a fixed id, so a
 * batch resent after a lost answer is the same batch and the licence server counts it once.
 */
export class UsageJournal {
  constructor(private readonly db: Db) {}

  /** Records the entry once per reference; answers false when it was already there. */
  async record(entry: JournalEntry, within?: Db): Promise<boolean> {
    const inserted = await (within ?? this.db)
      .insertInto('licence_usage_journal')
      .values({
        reference: entry.reference,
        account_id: entry.accountId,
        product: entry.product,
        seconds: entry.seconds,
        batch_id: null,
        sent_at: null,
      })
      .onConflict((conflict) => conflict.column('reference').doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  /** Seconds not yet acknowledged by the licence server (or carried away in a report file). */
  async unsentSeconds(): Promise<number> {
    const row = await this.db
      .selectFrom('licence_usage_journal')
      .select(sql<string>`coalesce(sum(seconds), 0)`.as('seconds'))
      .where('sent_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.seconds);
  }

  /** Every second ever journaled, sent or not. */
  async totalSeconds(): Promise<number> {
    const row = await this.db
      .selectFrom('licence_usage_journal')
      .select(sql<string>`coalesce(sum(seconds), 0)`.as('seconds'))
      .executeTakeFirstOrThrow();
    return Number(row.seconds);
  }

  /** Seals unbatched entries into batches, then answers every batch not sent yet, oldest first. */
  async pendingBatches(): Promise<UsageBatch[]> {
    for (;;) {
      const sealed = await this.db
        .updateTable('licence_usage_journal')
        .set({ batch_id: randomUUID() })
        .where(
          'id',
          'in',
          this.db
            .selectFrom('licence_usage_journal')
            .select('id')
            .where('batch_id', 'is', null)
            .orderBy('id')
            .limit(batchSize),
        )
        .executeTakeFirst();
      if (Number(sealed.numUpdatedRows) === 0) break;
    }
    const rows = await this.db
      .selectFrom('licence_usage_journal')
      .select([
        'batch_id',
        sql<string>`sum(seconds)`.as('seconds'),
        sql<Date>`min(recorded_at)`.as('period_start'),
        sql<Date>`max(recorded_at)`.as('period_end'),
        sql<string>`min(id)`.as('first'),
      ])
      .where('sent_at', 'is', null)
      .where('batch_id', 'is not', null)
      .groupBy('batch_id')
      .orderBy(sql`min(id)`)
      .execute();
    return rows.map((row) => ({
      batchId: row.batch_id ?? '',
      seconds: Number(row.seconds),
      periodStart: new Date(row.period_start).toISOString(),
      periodEnd: new Date(row.period_end).toISOString(),
    }));
  }

  async markSent(batchIds: string[]): Promise<void> {
    if (batchIds.length === 0) return;
    await this.db
      .updateTable('licence_usage_journal')
      .set({ sent_at: new Date() })
      .where('batch_id', 'in', batchIds)
      .execute();
  }
}
