import {
  purchaseAmounts,
  type Payment,
  type PaymentInit,
  type PaymentSession,
  type PaymentsPage,
} from '@verbatim/contracts';
import type { Logger } from 'pino';
import { AppError } from '../../errors/app-error.js';
import { newId } from '../../lib/ids.js';
import type { Db } from '../../platform/db/database.js';
import {
  CHECKOUT_SESSION_ID,
  type PaymentEvent,
  type PaymentProvider,
} from '../../platform/payments/payment-provider.js';
import type { Account } from '../accounts/accounts.repository.js';
import type { CreditsService } from '../credits/credits.service.js';
import type { VatService } from '../vat/vat.service.js';
import type { JobQueue } from '../../platform/queue/job-queue.js';
import type { InvoiceIssuer } from './invoice-issuer.js';
import { storeInvoicePdfJob } from './invoice.jobs.js';
import {
  PaymentsRepository,
  type InvoiceRow,
  type PaymentRow,
  type PaymentWithInvoice,
} from './payments.repository.js';
import type { SandboxSessionState } from './sandbox-checkout.routes.js';

export interface PaymentsServiceOptions {
  db: Db;
  provider: PaymentProvider;
  vat: VatService;
  credits: CreditsService;
  invoices: InvoiceIssuer;
  queue: JobQueue;
  /** The console's address: the provider sends the browser back to its success and billing pages. */
  publicUrl: string;
  productName: string;
  logger: Logger;
  now?: () => Date;
}

/** The ledger reference of a payment's credit: one per payment, so it is credited once. */
export const paymentCreditReference = (paymentId: string) => `payment:${paymentId}`;

/**
 * Prepaid credit bought by card: opens checkout sessions at the price the VAT service sets, and
 * applies the provider's verified events. Credit is added only here, on a `succeeded` event, in the
 * transaction that marks the payment paid and issues its invoice, so it happens exactly once
 * however many times, and however concurrently, the event is delivered.
 */
export class PaymentsService {
  readonly #repository: PaymentsRepository;
  readonly #now: () => Date;

  constructor(private readonly options: PaymentsServiceOptions) {
    this.#repository = new PaymentsRepository(options.db);
    this.#now = options.now ?? (() => new Date());
  }

  /**
   * `POST /limiter/payment-sessions`: recomputes the VAT and total the customer confirmed and
   * refuses a payload that no longer matches, then opens the provider's checkout session.
   */
  async createSession(account: Account, init: PaymentInit): Promise<PaymentSession> {
    const isCompany = init.customerType === 'company';
    const vatNumber = isCompany && init.vat_number !== '' ? init.vat_number : null;
    const quote = await this.options.vat.quote(init.countryIso, vatNumber);
    if (vatNumber !== null && !quote.isValidVATNumber) {
      throw new AppError('VALIDATION_FAILED', 'This VAT number is not valid for the selected country.', [
        { location: 'body', path: ['vat_number'], message: 'Invalid vatNumber' },
      ]);
    }
    const amounts = purchaseAmounts(init.credits, quote.standardRate);
    if (Math.round(init.vatRate * 100) !== Math.round(quote.standardRate * 100)) {
      throw new AppError(
        'PAYMENT_AMOUNT_CHANGED',
        `The VAT rate is ${quote.standardRate}%, not ${init.vatRate}%: confirm the new amounts.`,
      );
    }
    if (init.totalPrice !== amounts.totalCents) {
      throw new AppError(
        'PAYMENT_AMOUNT_CHANGED',
        `The total is ${amounts.totalCents} cents, not ${init.totalPrice}: confirm the new amounts.`,
      );
    }

    const locale = account.language === 'fr' ? 'fr' : 'en';
    const payment = await this.#repository.insert({
      id: newId('pay'),
      account_id: account.id,
      provider: this.options.provider.id,
      session_id: null,
      credits_cents: amounts.creditsCents,
      vat_rate_hundredths: Math.round(amounts.vatRate * 100),
      vat_cents: amounts.vatCents,
      total_cents: amounts.totalCents,
      vat_treatment: quote.treatment,
      vat_validation: quote.validation,
      customer_type: init.customerType,
      customer_email: init.email,
      customer_name: init.full_name,
      company_name: isCompany ? init.company_name : null,
      company_address: isCompany && init.company_address !== '' ? init.company_address : null,
      vat_number: vatNumber === null ? null : quote.vatNumber,
      country: quote.country,
      payment_method: init.paymentMethod,
      locale,
      transaction_number: null,
      card_brand: null,
      card_last4: null,
      failure_reason: null,
      checkout_completed_at: null,
      paid_at: null,
      expires_at: null,
    });
    try {
      const session = await this.options.provider.createCheckoutSession({
        paymentId: payment.id,
        amountCents: amounts.totalCents,
        currency: 'usd',
        description: `${this.options.productName}: prepaid speech-to-text API credits ($${(amounts.creditsCents / 100).toFixed(2)})`,
        customerEmail: init.email,
        locale,
        successUrl: `${this.options.publicUrl}/payment/success/${CHECKOUT_SESSION_ID}`,
        cancelUrl: `${this.options.publicUrl}/billing`,
        metadata: { accountId: account.id, paymentId: payment.id },
      });
      await this.#repository.update(payment.id, {
        session_id: session.sessionId,
        expires_at: session.expiresAt,
      });
      return { sessionId: session.sessionId, url: session.checkoutUrl };
    } catch (error) {
      // No session, nothing the customer could pay: the row would only be noise in the history.
      await this.#repository.delete(payment.id);
      throw error;
    }
  }

  /**
   * Applies one verified event of the provider. Idempotent per delivery (payment_events) and per
   * payment (the payment row is locked, and a payment is credited only on its way to `succeeded`).
   */
  async applyEvent(event: PaymentEvent): Promise<void> {
    const log = this.options.logger.child({
      provider: event.provider,
      eventId: event.eventId,
      sessionId: event.sessionId,
    });
    const credited = await this.options.db.transaction().execute(async (trx) => {
      const repository = new PaymentsRepository(trx);
      const payment = await repository.lockBySession(event.provider, event.sessionId);
      const isNew = await repository.recordEvent({
        provider: event.provider,
        eventId: event.eventId,
        paymentId: payment?.id ?? null,
        type: event.type,
      });
      if (!isNew) {
        log.info('payment event already processed');
        return null;
      }
      if (!payment) {
        // Another application's session on a shared provider account, or a deleted account.
        log.warn('payment event for an unknown checkout session ignored');
        return null;
      }
      if (event.paymentId !== null && event.paymentId !== payment.id) {
        log.error(
          { paymentId: payment.id, eventPaymentId: event.paymentId },
          'payment event names another payment',
        );
        return null;
      }
      return this.#apply(repository, trx, payment, event, log);
    });
    if (credited) {
      // After the commit: a failure here only delays the PDF, which a download renders anyway.
      await this.options.queue
        .send(storeInvoicePdfJob, { invoiceId: credited.id })
        .catch((error: unknown) =>
          log.warn({ err: error, invoice: credited.number }, 'invoice PDF job not queued'),
        );
    }
  }

  async #apply(
    repository: PaymentsRepository,
    trx: Db,
    payment: PaymentRow,
    event: PaymentEvent,
    log: Logger,
  ): Promise<InvoiceRow | null> {
    if (payment.status === 'succeeded') return null; // final: nothing changes a paid payment
    const now = this.#now();
    switch (event.type) {
      case 'succeeded': {
        if (event.amountCents !== payment.total_cents || (event.currency ?? '').toLowerCase() !== 'usd') {
          log.error(
            {
              paymentId: payment.id,
              expected: payment.total_cents,
              got: event.amountCents,
              currency: event.currency,
            },
            'paid amount differs from the payment: not credited',
          );
          await repository.update(payment.id, { status: 'failed', failure_reason: 'amount_mismatch' });
          return null;
        }
        const changes = {
          status: 'succeeded' as const,
          paid_at: event.occurredAt,
          transaction_number: event.transactionNumber,
          card_brand: event.card?.brand ?? null,
          card_last4: event.card?.last4 ?? null,
          failure_reason: null,
          checkout_completed_at: payment.checkout_completed_at ?? now,
        };
        await repository.update(payment.id, changes);
        await this.options.credits.credit(
          {
            accountId: payment.account_id,
            cents: payment.credits_cents,
            reference: paymentCreditReference(payment.id),
          },
          trx,
        );
        const invoice = await this.options.invoices.issue(repository, { ...payment, ...changes }, now);
        log.info(
          { paymentId: payment.id, invoice: invoice.number, credits: payment.credits_cents },
          'payment credited',
        );
        return invoice;
      }
      case 'pending':
        await repository.update(payment.id, { status: 'pending', checkout_completed_at: now });
        return null;
      case 'failed':
        await repository.update(payment.id, {
          status: 'failed',
          failure_reason: event.failureReason ?? 'payment_failed',
          card_brand: event.card?.brand ?? payment.card_brand,
          card_last4: event.card?.last4 ?? payment.card_last4,
        });
        return null;
      case 'expired':
        await repository.update(payment.id, { status: 'deleted' });
        return null;
    }
  }

  /** Job handler: keeps the PDF of an issued invoice in file storage. */
  storeInvoicePdf(invoiceId: string): Promise<void> {
    return this.options.invoices.storePdf(this.#repository, invoiceId);
  }

  /** `GET /limiter/payments`: one page of the account's payments, newest first. */
  async page(accountId: string, start: number, limit: number): Promise<PaymentsPage> {
    await this.#repository.expireAbandoned(accountId, this.#now());
    const [rows, total] = await Promise.all([
      this.#repository.page(accountId, start, limit),
      this.#repository.count(accountId),
    ]);
    return { payments: rows.map(paymentView), total };
  }

  /** The invoice PDF of one of the account's payments; NOT_FOUND for anyone else's, or before payment. */
  async invoicePdf(accountId: string, paymentId: string): Promise<{ number: string; pdf: Buffer }> {
    const invoice = await this.#repository.invoiceOf(accountId, paymentId);
    if (!invoice) throw new AppError('NOT_FOUND', 'There is no invoice for this payment.');
    return { number: invoice.number, pdf: await this.options.invoices.pdfOf(invoice) };
  }

  /** What the sandbox checkout page should show for a session: its form, or that it is paid or closed. */
  async sandboxSessionState(sessionId: string): Promise<SandboxSessionState> {
    const payment = await this.#repository.findBySession(sessionId);
    if (!payment) return 'closed';
    if (payment.status === 'succeeded') return 'paid';
    return payment.status === 'deleted' ? 'closed' : 'open';
  }
}

function paymentView(row: PaymentWithInvoice): Payment {
  return {
    id: row.id,
    createdAt: row.created_at.toISOString(),
    transactionNumber: row.transaction_number,
    paymentProvider: row.provider,
    status: row.status,
    amount: row.total_cents,
    purchase: { ceiling: row.credits_cents },
    invoiceNumber: row.invoice_number,
    invoiceEnLocation: row.invoice_number ? `/api/v1/limiter/payments/${row.id}/invoice` : null,
  };
}
