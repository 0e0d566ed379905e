import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';
import { formatPercent, formatUsd } from '../../lib/money.js';
import { assertConsistent, type InvoiceDocument } from './invoice-document.js';
import { invoiceTexts, type InvoiceLocale, type InvoiceTexts } from './invoice-texts.js';

/**
 * DejaVu Sans, embedded (as a subset): unlike the PDF standard fonts, which only know Western
 * European letters, it prints the names and addresses of customers from anywhere in Europe
 * (Łódź, Ελλάδα, България…), and text extraction reads them back.
 */
let fonts: { regular: Buffer; bold: Buffer } | undefined;
function loadFonts(): { regular: Buffer; bold: Buffer } {
  if (!fonts) {
    const require = createRequire(import.meta.url);
    fonts = {
      regular: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')),
      bold: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf')),
    };
  }
  return fonts;
}

const brandNames: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  diners: 'Diners Club',
  jcb: 'JCB',
  unionpay: 'UnionPay',
};

const isoDate = (date: Date) => date.toISOString().slice(0, 10);
const grey = '#555555';

function paidVia(invoice: InvoiceDocument, t: InvoiceTexts): string {
  const provider = t.provider[invoice.payment.provider];
  const card = invoice.payment.card;
  if (!card) return provider;
  return `${provider}, ${brandNames[card.brand] ?? card.brand} •••• ${card.last4}`;
}

/**
 * The invoice of one succeeded payment as a PDF (A4): seller, buyer, number, dates, the credits
 * line, VAT and total in USD, how it was paid, and the VAT mention its treatment requires. The
 * same document renders the same text every time; store the bytes once and serve those.
 */
export async function renderInvoicePdf(
  invoice: InvoiceDocument,
  locale: InvoiceLocale = 'en',
): Promise<Buffer> {
  assertConsistent(invoice);
  const t = invoiceTexts[locale];
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    lang: locale,
    displayTitle: true,
    info: {
      Title: `${t.title} ${invoice.number}`,
      Author: invoice.seller.name,
      Subject: t.line,
      CreationDate: invoice.issuedAt,
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const { regular, bold } = loadFonts();
  doc.registerFont('regular', regular);
  doc.registerFont('bold', bold);
  draw(doc, invoice, t, locale);
  doc.end();
  const pdf = await done;
  return pdf;
}

function draw(
  doc: PDFKit.PDFDocument,
  invoice: InvoiceDocument,
  t: InvoiceTexts,
  locale: InvoiceLocale,
): void {
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const money = (cents: number) => formatUsd(cents, locale);

  // Header: who issues it, and what it is.
  const top = doc.page.margins.top;
  doc.font('bold').fontSize(20).fillColor('black').text(t.title, left, top, { width, align: 'right' });
  doc
    .font('bold')
    .fontSize(16)
    .text(invoice.seller.name, left, top, { width: width * 0.6 });
  let y = Math.max(doc.y, top + 28) + 18;

  // Invoice details.
  const details: [string, string][] = [
    [t.number, invoice.number],
    [t.issued, isoDate(invoice.issuedAt)],
    [t.paid, isoDate(invoice.payment.paidAt)],
    [t.paidVia, paidVia(invoice, t)],
  ];
  if (invoice.payment.transactionNumber) details.push([t.transaction, invoice.payment.transactionNumber]);
  const labelWidth = 130;
  for (const [label, value] of details) {
    doc.font('bold').fontSize(10).text(label, left, y, { width: labelWidth });
    doc.font('regular').text(value, left + labelWidth, y, { width: width - labelWidth });
    y = doc.y + 3;
  }
  y += 18;

  // Seller and buyer side by side.
  const gap = 24;
  const column = (width - gap) / 2;
  const block = (x: number, heading: string, lines: { text: string; strong?: boolean }[]) => {
    doc.font('bold').fontSize(9).fillColor(grey).text(heading.toUpperCase(), x, y, { width: column });
    doc.fillColor('black').moveDown(0.3);
    for (const line of lines) {
      doc
        .font(line.strong ? 'bold' : 'regular')
        .fontSize(10)
        .text(line.text, x, doc.y, { width: column });
    }
    return doc.y;
  };
  const seller = invoice.seller;
  const sellerEnd = block(left, t.seller, [
    { text: seller.name, strong: true },
    ...seller.addressLines.map((text) => ({ text })),
    { text: seller.countryName },
    ...(seller.vatNumber ? [{ text: `${t.vatNumber}${t.colon}${seller.vatNumber}` }] : []),
    ...(seller.email ? [{ text: seller.email }] : []),
  ]);
  const buyer = invoice.buyer;
  const buyerLines =
    buyer.type === 'company'
      ? [
          { text: buyer.companyName ?? '', strong: true },
          ...(buyer.companyAddress ?? '')
            .split(/\r?\n/)
            .map((text) => text.trim())
            .filter(Boolean)
            .map((text) => ({ text })),
          { text: buyer.countryName },
          ...(buyer.vatNumber ? [{ text: `${t.vatNumber}${t.colon}${buyer.vatNumber}` }] : []),
          { text: `${t.contact}${t.colon}${buyer.fullName}` },
          { text: buyer.email },
        ]
      : [
          { text: buyer.fullName, strong: true },
          { text: buyer.email },
          { text: buyer.countryName },
          ...(buyer.vatNumber ? [{ text: `${t.vatNumber}${t.colon}${buyer.vatNumber}` }] : []),
        ];
  const buyerEnd = block(left + column + gap, t.buyer, buyerLines);
  y = Math.max(sellerEnd, buyerEnd) + 28;

  // The line and the totals.
  const amountWidth = 120;
  const amountX = left + width - amountWidth;
  const rule = (at: number, weight = 0.5) =>
    doc
      .moveTo(left, at)
      .lineTo(left + width, at)
      .lineWidth(weight)
      .strokeColor('#999999')
      .stroke();
  doc
    .font('bold')
    .fontSize(10)
    .text(t.description, left, y, { width: width - amountWidth });
  doc.text(t.amount, amountX, y, { width: amountWidth, align: 'right' });
  y = doc.y + 4;
  rule(y);
  y += 8;
  doc
    .font('regular')
    .fontSize(10)
    .text(t.line, left, y, { width: width - amountWidth - 12 });
  doc
    .fontSize(8.5)
    .fillColor(grey)
    .text(t.lineDetail, left, doc.y + 2, { width: width - amountWidth - 12 });
  const lineEnd = doc.y;
  doc.fillColor('black').fontSize(10).text(money(invoice.creditsCents), amountX, y, {
    width: amountWidth,
    align: 'right',
  });
  y = Math.max(lineEnd, doc.y) + 8;
  rule(y);
  y += 10;

  const totalsLabelX = left + width * 0.4;
  const totalsLabelWidth = amountX - totalsLabelX - 12;
  const totalRow = (label: string, value: string, strong = false) => {
    doc.font(strong ? 'bold' : 'regular').fontSize(strong ? 12 : 10);
    doc.text(label, totalsLabelX, y, { width: totalsLabelWidth, align: 'right' });
    const labelEnd = doc.y;
    doc.text(value, amountX, y, { width: amountWidth, align: 'right' });
    y = Math.max(labelEnd, doc.y) + 5;
  };
  totalRow(t.subtotal, money(invoice.creditsCents));
  totalRow(t.vat(formatPercent(invoice.vat.ratePercent, locale)), money(invoice.vat.amountCents));
  y += 2;
  totalRow(`${t.total} (${invoice.currency})`, money(invoice.totalCents), true);
  y += 20;

  // Mentions the VAT treatment requires, then how it was paid.
  const mention =
    invoice.vat.treatment === 'reverse_charge'
      ? t.reverseCharge
      : invoice.vat.treatment === 'outside_eu'
        ? t.outsideEu[buyer.type]
        : undefined;
  if (mention) {
    doc.font('bold').fontSize(10).text(mention, left, y, { width });
    y = doc.y + 10;
  }
  doc
    .font('regular')
    .fontSize(10)
    .text(t.paidInFull(isoDate(invoice.payment.paidAt), paidVia(invoice, t)), left, y, {
      width,
    });
  doc.text(t.currency, left, doc.y + 2, { width });
  if (invoice.payment.provider === 'sandbox') {
    doc
      .moveDown(1)
      .font('bold')
      .fillColor('#c2410c')
      .text(t.testMode, left, doc.y, { width })
      .fillColor('black');
  }
}
