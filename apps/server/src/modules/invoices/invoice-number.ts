/**
 * Invoice numbers: PREFIX-YEAR-SEQUENCE, e.g. VBT-2026-000001. The sequence restarts at 1 every
 * calendar year (UTC) and has no gaps, as EU invoicing rules want (Directive 2006/112/EC art. 226(2):
 * "a sequential number … which uniquely identifies the invoice").
 *
 * Gap-free means the number is taken in the same transaction that records the invoice, from a
 * counter row locked for that transaction, never from a PostgreSQL SEQUENCE (a rolled-back
 * transaction burns a sequence value and leaves a gap):
 *
 *   create table invoice_sequences (year int primary key, last_number int not null);
 *   -- inside the transaction that inserts the invoice:
 *   insert into invoice_sequences (year, last_number) values ($year, 1)
 *     on conflict (year) do update set last_number = invoice_sequences.last_number + 1
 *     returning last_number;
 *
 * The upsert takes the row lock until commit, so concurrent invoices queue behind each other and a
 * rollback gives the number back. Issue the invoice once per payment (a unique payment_id on the
 * invoices table) so a webhook delivered twice cannot take two numbers.
 */

export const defaultInvoicePrefix = 'VBT';

const sequenceDigits = 6;

export function formatInvoiceNumber(year: number, sequence: number, prefix = defaultInvoicePrefix): string {
  if (!Number.isInteger(year) || year < 2000 || year > 9999)
    throw new RangeError(`invalid invoice year ${year}`);
  if (!Number.isSafeInteger(sequence) || sequence < 1)
    throw new RangeError(`invalid invoice sequence ${sequence}`);
  if (!/^[A-Z][A-Z0-9]{0,9}$/.test(prefix)) throw new RangeError(`invalid invoice prefix ${prefix}`);
  return `${prefix}-${year}-${String(sequence).padStart(sequenceDigits, '0')}`;
}

export function parseInvoiceNumber(
  value: string,
): { prefix: string; year: number; sequence: number } | undefined {
  const match = /^([A-Z][A-Z0-9]{0,9})-(\d{4})-(\d{6,})$/.exec(value);
  if (!match) return undefined;
  return { prefix: match[1]!, year: Number(match[2]), sequence: Number(match[3]) };
}

/** The year an invoice issued at this instant counts in (UTC, like every time in the product). */
export function invoiceYear(issuedAt: Date): number {
  return issuedAt.getUTCFullYear();
}
