import type { Config } from '../../config/config.js';
import type { FileStorage } from '../../platform/storage/file-storage.js';
import type { InvoiceDocument } from '../invoices/invoice-document.js';
import { formatInvoiceNumber, invoiceYear } from '../invoices/invoice-number.js';
import { renderInvoicePdf } from '../invoices/invoice-pdf.js';
import { invoiceOfStored, storedInvoice } from '../invoices/stored-invoice.js';
import { countryName } from '../vat/countries.js';
import type { InvoiceRow, PaymentRow, PaymentsRepository } from './payments.repository.js';

/**
 * Issues the invoice of a paid payment: takes its number from the gap-free yearly sequence and
 * records the document in the transaction that credits the payment, then keeps its PDF (English,
 * the invoiceEnLocation of the history) in file storage, rendered once from that document.
 */
export class InvoiceIssuer {
  constructor(
    private readonly seller: Config['seller'],
    private readonly storage: FileStorage,
  ) {}

  /** Call inside the crediting transaction, once per payment (invoices.payment_id is unique). */
  async issue(repository: PaymentsRepository, payment: PaymentRow, issuedAt: Date): Promise<InvoiceRow> {
    const year = invoiceYear(issuedAt);
    const number = formatInvoiceNumber(year, await repository.nextInvoiceSequence(year));
    const document = this.#document(payment, number, issuedAt);
    return repository.insertInvoice({
      payment_id: payment.id,
      account_id: payment.account_id,
      number,
      issued_at: issuedAt,
      document: JSON.stringify(storedInvoice(document)),
    });
  }

  /** The storeInvoicePdfJob: keeps the PDF of an issued invoice, once. */
  async storePdf(repository: PaymentsRepository, invoiceId: string): Promise<void> {
    const invoice = await repository.findInvoice(invoiceId);
    if (!invoice) throw new Error(`invoice ${invoiceId} does not exist`);
    await this.pdfOf(invoice);
  }

  /** The PDF of an issued invoice: the stored bytes, or rendered from its document and stored. */
  async pdfOf(invoice: InvoiceRow): Promise<Buffer> {
    const key = storageKey(invoice.account_id, invoice.number);
    const stored = await this.storage.get(key);
    if (stored) return stored;
    const pdf = await renderInvoicePdf(invoiceOfStored(invoice.document), 'en');
    await this.storage.put(key, pdf);
    return pdf;
  }

  #document(payment: PaymentRow, number: string, issuedAt: Date): InvoiceDocument {
    if (!payment.paid_at) throw new Error(`payment ${payment.id} is not paid`);
    const isCompany = payment.customer_type === 'company';
    return {
      number,
      issuedAt,
      seller: {
        name: this.seller.name,
        addressLines: this.seller.addressLines,
        countryName: countryName(this.seller.country) ?? this.seller.country,
        vatNumber: this.seller.vatNumber,
        email: this.seller.email,
      },
      buyer: {
        type: payment.customer_type,
        fullName: payment.customer_name,
        email: payment.customer_email,
        companyName: isCompany ? payment.company_name : null,
        companyAddress: isCompany ? payment.company_address : null,
        vatNumber: payment.vat_number,
        countryName: countryName(payment.country) ?? payment.country,
      },
      creditsCents: payment.credits_cents,
      vat: {
        treatment: payment.vat_treatment,
        ratePercent: payment.vat_rate_hundredths / 100,
        amountCents: payment.vat_cents,
      },
      totalCents: payment.total_cents,
      currency: 'USD',
      payment: {
        provider: payment.provider,
        paidAt: payment.paid_at,
        transactionNumber: payment.transaction_number,
        card:
          payment.card_brand && payment.card_last4
            ? { brand: payment.card_brand, last4: payment.card_last4 }
            : null,
      },
    };
  }
}

function storageKey(accountId: string, number: string): string {
  return `invoices/${accountId}/${number}.pdf`;
}
