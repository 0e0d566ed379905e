import type { CustomerType, PaymentProviderId } from '@verbatim/contracts';

export type InvoiceLocale = 'en' | 'fr';

export interface InvoiceTexts {
  title: string;
  number: string;
  issued: string;
  paid: string;
  paidVia: string;
  transaction: string;
  seller: string;
  buyer: string;
  vatNumber: string;
  contact: string;
  /** Between a label and its value in running text ("VAT number: …"; French puts a space before the colon). */
  colon: string;
  description: string;
  amount: string;
  line: string;
  lineDetail: string;
  subtotal: string;
  vat: (rate: string) => string;
  total: string;
  currency: string;
  paidInFull: (date: string, via: string) => string;
  provider: Record<PaymentProviderId, string>;
  /** Council Directive 2006/112/EC, art. 196 (services to a taxable person of another member state). */
  reverseCharge: string;
  /** Place of supply outside the EU: art. 44 for businesses, art. 58 for consumers (electronic services). */
  outsideEu: Record<CustomerType, string>;
  testMode: string;
}

export const invoiceTexts: Record<InvoiceLocale, InvoiceTexts> = {
  en: {
    title: 'INVOICE',
    number: 'Invoice number',
    issued: 'Date of issue',
    paid: 'Date paid',
    paidVia: 'Paid via',
    transaction: 'Transaction',
    seller: 'From',
    buyer: 'Bill to',
    vatNumber: 'VAT number',
    contact: 'Contact',
    colon: ': ',
    description: 'Description',
    amount: 'Amount',
    line: 'Prepaid speech-to-text API credits',
    lineDetail: 'Credit added to the account balance, used by the speech-to-text API and the console',
    subtotal: 'Subtotal (excluding VAT)',
    vat: (rate) => `VAT (${rate})`,
    total: 'Total',
    currency: 'All amounts are in US dollars (USD).',
    paidInFull: (date, via) => `Paid in full on ${date} via ${via}.`,
    provider: { sandbox: 'sandbox checkout (test mode)', stripe: 'Stripe' },
    reverseCharge:
      'Reverse charge: VAT to be accounted for by the recipient (Article 196, Council Directive 2006/112/EC)',
    outsideEu: {
      company:
        'VAT not applicable: place of supply outside the European Union (Article 44, Council Directive 2006/112/EC)',
      private:
        'VAT not applicable: place of supply outside the European Union (Article 58, Council Directive 2006/112/EC)',
    },
    testMode: 'TEST MODE: issued for a sandbox payment; no money was received.',
  },
  fr: {
    title: 'FACTURE',
    number: 'Numéro de facture',
    issued: "Date d'émission",
    paid: 'Date de paiement',
    paidVia: 'Payé par',
    transaction: 'Transaction',
    seller: 'Émetteur',
    buyer: 'Facturé à',
    vatNumber: 'Numéro de TVA',
    contact: 'Contact',
    colon: '\u00a0: ',
    description: 'Désignation',
    amount: 'Montant',
    line: "Crédits prépayés pour l'API de transcription",
    lineDetail: "Crédit ajouté au solde du compte, utilisé par l'API de transcription et la console",
    subtotal: 'Sous-total (hors TVA)',
    vat: (rate) => `TVA (${rate})`,
    total: 'Total',
    currency: 'Tous les montants sont en dollars américains (USD).',
    paidInFull: (date, via) => `Payée intégralement le ${date} par ${via}.`,
    provider: { sandbox: 'paiement de test (sandbox)', stripe: 'Stripe' },
    reverseCharge:
      'Autoliquidation\u00a0: TVA due par le preneur (article 196 de la directive 2006/112/CE du Conseil)',
    outsideEu: {
      company:
        "TVA non applicable\u00a0: lieu de la prestation hors de l'Union européenne (article 44 de la directive 2006/112/CE du Conseil)",
      private:
        "TVA non applicable\u00a0: lieu de la prestation hors de l'Union européenne (article 58 de la directive 2006/112/CE du Conseil)",
    },
    testMode: "MODE TEST\u00a0: émise pour un paiement de test\u00a0; aucune somme n'a été encaissée.",
  },
};
