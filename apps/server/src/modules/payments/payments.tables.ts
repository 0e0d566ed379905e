import type {
  CustomerType,
  PaymentMethod,
  PaymentProviderId,
  PaymentStatus,
  VatNumberValidation,
  VatTreatmentKind,
} from '@verbatim/contracts';
import type { ColumnType, Generated, JSONColumnType } from 'kysely';
import type { StoredInvoiceDocument } from '../invoices/stored-invoice.js';

export interface PaymentsTable {
  id: string;
  account_id: string;
  provider: PaymentProviderId;
  /** The provider's checkout session; null for the instant between our row and the provider's answer. */
  session_id: string | null;
  status: Generated<PaymentStatus>;
  credits_cents: number;
  /** In hundredths of a percent (2100 = 21 %), so that rates such as 25.5 % stay exact. */
  vat_rate_hundredths: number;
  vat_cents: number;
  total_cents: number;
  vat_treatment: VatTreatmentKind;
  vat_validation: VatNumberValidation;
  customer_type: CustomerType;
  customer_email: string;
  customer_name: string;
  company_name: string | null;
  company_address: string | null;
  vat_number: string | null;
  country: string;
  payment_method: PaymentMethod;
  locale: 'en' | 'fr';
  transaction_number: string | null;
  card_brand: string | null;
  card_last4: string | null;
  failure_reason: string | null;
  /** The customer finished the checkout; the money may still be settling (status pending). */
  checkout_completed_at: Date | null;
  paid_at: Date | null;
  expires_at: Date | null;
  created_at: Generated<Date>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface PaymentEventsTable {
  provider: PaymentProviderId;
  event_id: string;
  payment_id: string | null;
  type: string;
  received_at: Generated<Date>;
}

export interface InvoiceSequencesTable {
  year: number;
  last_number: number;
}

/** The document is kept as issued: the PDF is rendered from it, identically, whenever needed. */
export interface InvoicesTable {
  id: string;
  payment_id: string;
  account_id: string;
  number: string;
  issued_at: Date;
  /** Written as JSON text, read back parsed. */
  document: JSONColumnType<StoredInvoiceDocument, string, string>;
  created_at: Generated<Date>;
}
