import type { PaymentProviderId } from '@verbatim/contracts';
import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import { newId } from '../../lib/ids.js';
import type { Db } from '../../platform/db/database.js';
import type { InvoicesTable, PaymentsTable } from './payments.tables.js';

export type PaymentRow = Selectable<PaymentsTable>;
export type NewPayment = Omit<Insertable<PaymentsTable>, 'created_at' | 'updated_at' | 'status'>;
export type InvoiceRow = Selectable<InvoicesTable>;
export type PaymentWithInvoice = PaymentRow & { invoice_number: string | null };

/** Queries of payments, their events and invoices, bound to a connection or a transaction. */
export class PaymentsRepository {
  constructor(private readonly db: Db) {}

  async insert(payment: NewPayment): Promise<PaymentRow> {
    return this.db.insertInto('payments').values(payment).returningAll().executeTakeFirstOrThrow();
  }

  async update(id: string, changes: Omit<Updateable<PaymentsTable>, 'id' | 'updated_at'>): Promise<void> {
    await this.db
      .updateTable('payments')
      .set({ ...changes, updated_at: new Date() })
      .where('id', '=', id)
      .execute();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('payments').where('id', '=', id).execute();
  }

  /** The payment of a checkout session, locked until the transaction ends: its events queue up. */
  lockBySession(provider: PaymentProviderId, sessionId: string): Promise<PaymentRow | undefined> {
    return this.db
      .selectFrom('payments')
      .selectAll()
      .where('provider', '=', provider)
      .where('session_id', '=', sessionId)
      .forUpdate()
      .executeTakeFirst();
  }

  findBySession(sessionId: string): Promise<PaymentRow | undefined> {
    return this.db.selectFrom('payments').selectAll().where('session_id', '=', sessionId).executeTakeFirst();
  }

  /**
   * Records a verified event once. False when this delivery was already processed (the provider
   * sent it again): the caller then has nothing to do.
   */
  async recordEvent(event: {
    provider: PaymentProviderId;
    eventId: string;
    paymentId: string | null;
    type: string;
  }): Promise<boolean> {
    const inserted = await this.db
      .insertInto('payment_events')
      .values({
        provider: event.provider,
        event_id: event.eventId,
        payment_id: event.paymentId,
        type: event.type,
      })
      .onConflict((conflict) => conflict.columns(['provider', 'event_id']).doNothing())
      .returning('event_id')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  /**
   * Checkout sessions that can no longer be paid and were never completed become `deleted`. A
   * session whose checkout was completed stays pending: its money is on the way.
   */
  async expireAbandoned(accountId: string, now: Date): Promise<void> {
    await this.db
      .updateTable('payments')
      .set({ status: 'deleted', updated_at: now })
      .where('account_id', '=', accountId)
      .where('status', '=', 'pending')
      .where('checkout_completed_at', 'is', null)
      .where('expires_at', '<', now)
      .execute();
  }

  /** One page of the account's payments, newest first, with the number of its invoice. */
  page(accountId: string, start: number, limit: number): Promise<PaymentWithInvoice[]> {
    return this.db
      .selectFrom('payments')
      .leftJoin('invoices', 'invoices.payment_id', 'payments.id')
      .selectAll('payments')
      .select('invoices.number as invoice_number')
      .where('payments.account_id', '=', accountId)
      .where('payments.session_id', 'is not', null)
      .orderBy('payments.created_at', 'desc')
      .orderBy('payments.id', 'desc')
      .offset(start)
      .limit(limit)
      .execute();
  }

  async count(accountId: string): Promise<number> {
    const row = await this.db
      .selectFrom('payments')
      .select((eb) => eb.fn.countAll<string | number>().as('count'))
      .where('account_id', '=', accountId)
      .where('session_id', 'is not', null)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** The next number of the year's gap-free sequence; the counter row stays locked until commit. */
  async nextInvoiceSequence(year: number): Promise<number> {
    const row = await this.db
      .insertInto('invoice_sequences')
      .values({ year, last_number: 1 })
      .onConflict((conflict) =>
        conflict.column('year').doUpdateSet({ last_number: sql<number>`invoice_sequences.last_number + 1` }),
      )
      .returning('last_number')
      .executeTakeFirstOrThrow();
    return row.last_number;
  }

  async insertInvoice(invoice: Omit<Insertable<InvoicesTable>, 'id' | 'created_at'>): Promise<InvoiceRow> {
    return this.db
      .insertInto('invoices')
      .values({ id: newId('inv'), ...invoice })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  findInvoice(id: string): Promise<InvoiceRow | undefined> {
    return this.db.selectFrom('invoices').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The invoice of a payment, only when the payment belongs to the account. */
  invoiceOf(accountId: string, paymentId: string): Promise<InvoiceRow | undefined> {
    return this.db
      .selectFrom('invoices')
      .selectAll()
      .where('payment_id', '=', paymentId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
  }
}
