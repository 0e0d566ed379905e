import type { MeteredProduct } from '@verbatim/contracts';
import type { Generated } from 'kysely';

/** Credits add to the balance; usage takes from it. */
export type CreditKind = 'starting_credit' | 'purchase' | 'adjustment';
export type LedgerEntryKind = CreditKind | 'usage';

export interface LedgerEntriesTable {
  id: string;
  account_id: string;
  kind: LedgerEntryKind;
  /** Millionths of a dollar: positive for credits, zero or negative for usage. */
  amount_micros: number;
  /** Usage only. */
  product: MeteredProduct | null;
  /** Usage only: whole seconds of audio charged. */
  billed_seconds: number | null;
  /** Usage only: the price the entry was charged at. */
  price_micros_per_hour: number | null;
  /** Usage made with an API key (null: with a console session, or a credit). */
  api_key_id: string | null;
  /** Unique per account: a charge or credit repeated with the same reference happens once. */
  reference: string;
  created_at: Generated<Date>;
}
