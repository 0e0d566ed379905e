import type { InvoiceDocument } from './invoice-document.js';

/** An invoice document as kept in the database: JSON, its instants as ISO 8601 strings. */
export type StoredInvoiceDocument = Omit<InvoiceDocument, 'issuedAt' | 'payment'> & {
  issuedAt: string;
  payment: Omit<InvoiceDocument['payment'], 'paidAt'> & { paidAt: string };
};

export function storedInvoice(invoice: InvoiceDocument): StoredInvoiceDocument {
  return {
    ...invoice,
    issuedAt: invoice.issuedAt.toISOString(),
    payment: { ...invoice.payment, paidAt: invoice.payment.paidAt.toISOString() },
  };
}

export function invoiceOfStored(stored: StoredInvoiceDocument): InvoiceDocument {
  return {
    ...stored,
    issuedAt: new Date(stored.issuedAt),
    payment: { ...stored.payment, paidAt: new Date(stored.payment.paidAt) },
  };
}
