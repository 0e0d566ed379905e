import type { CustomerType, PaymentProviderId, VatTreatmentKind } from '@verbatim/contracts';

/** Everything printed on an invoice; amounts in integer cents, currency always USD. */
export interface InvoiceDocument {
  /** From the gap-free yearly sequence, e.g. VBT-2026-000001 (see invoice-number.ts). */
  number: string;
  issuedAt: Date;
  seller: InvoiceSeller;
  buyer: InvoiceBuyer;
  /** The credit bought: the amount before VAT. */
  creditsCents: number;
  vat: {
    /** Why this rate (the VAT module decides): it chooses the mention printed under the totals. */
    treatment: VatTreatmentKind;
    /** In percent; 0 under the reverse charge and outside the EU. */
    ratePercent: number;
    amountCents: number;
  };
  /** creditsCents + vat.amountCents: what was paid. */
  totalCents: number;
  currency: 'USD';
  payment: {
    provider: PaymentProviderId;
    paidAt: Date;
    /** The provider's reference (Stripe's payment intent), when there is one. */
    transactionNumber: string | null;
    card: { brand: string; last4: string } | null;
  };
}

export interface InvoiceSeller {
  name: string;
  /** Street, postcode and town…, one line each. */
  addressLines: string[];
  countryName: string;
  vatNumber: string | null;
  email: string | null;
}

export interface InvoiceBuyer {
  type: CustomerType;
  fullName: string;
  email: string;
  /** Companies only. */
  companyName: string | null;
  /** As typed in the payment form; line breaks are kept. */
  companyAddress: string | null;
  /** Printed whenever present; required under the reverse charge. */
  vatNumber: string | null;
  countryName: string;
}

/** Refuses a document whose figures do not add up: an invoice is never printed wrong. */
export function assertConsistent(invoice: InvoiceDocument): void {
  const problems: string[] = [];
  const amounts = [invoice.creditsCents, invoice.vat.amountCents, invoice.totalCents];
  if (!amounts.every((amount) => Number.isSafeInteger(amount) && amount >= 0)) {
    problems.push('amounts must be non-negative integers of cents');
  }
  if (invoice.creditsCents + invoice.vat.amountCents !== invoice.totalCents) {
    problems.push('total must be credits plus VAT');
  }
  if (!(invoice.vat.ratePercent >= 0 && invoice.vat.ratePercent <= 100))
    problems.push('VAT rate out of range');
  // VAT is the rate applied to the credits, rounded to the cent one way or the other.
  if (Math.abs(invoice.vat.amountCents - (invoice.creditsCents * invoice.vat.ratePercent) / 100) >= 1) {
    problems.push('VAT amount does not match the rate');
  }
  const zeroRated = invoice.vat.treatment === 'reverse_charge' || invoice.vat.treatment === 'outside_eu';
  if (zeroRated && (invoice.vat.ratePercent !== 0 || invoice.vat.amountCents !== 0)) {
    problems.push(`no VAT is charged under ${invoice.vat.treatment}`);
  }
  if (
    invoice.vat.treatment === 'reverse_charge' &&
    (invoice.buyer.type !== 'company' || !invoice.buyer.vatNumber)
  ) {
    problems.push("the reverse charge needs the buyer's VAT number");
  }
  if (invoice.buyer.type === 'company' && !invoice.buyer.companyName)
    problems.push('a company buyer has a name');
  if (problems.length > 0)
    throw new Error(`invoice ${invoice.number} is inconsistent: ${problems.join('; ')}`);
}
