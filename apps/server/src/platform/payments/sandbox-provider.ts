import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { z } from 'zod';
import { AppError } from '../../errors/app-error.js';
import type { SecretStore } from '../crypto/secret-store.js';
import { randomSecret } from '../crypto/tokens.js';
import {
  CHECKOUT_SESSION_ID,
  headerValue,
  type CheckoutSession,
  type CheckoutSessionRequest,
  type PaymentEvent,
  type PaymentProvider,
  type WebhookHeaders,
} from './payment-provider.js';
import {
  checkCard,
  testCardOutcome,
  type CardField,
  type CardInput,
  type CardProblem,
  type DeclineReason,
} from './sandbox-cards.js';
import { signatureHeader, verifySignatureHeader } from './webhook-signature.js';

/** The address of the hosted checkout page, under the product's public URL. */
export const sandboxCheckoutPath = '/sandbox-checkout';
/** The header carrying the sandbox's webhook signature (Stripe's scheme, our name). */
export const sandboxSignatureHeader = 'verbatim-sandbox-signature';

/** Generated on first use and stored, so every node signs and verifies with the same secret. */
export function loadSandboxSecret(secrets: SecretStore): Promise<string> {
  return secrets.getOrCreate('payments-sandbox-webhook-secret', () => `whsec_${randomSecret()}`);
}

export interface SandboxOptions {
  /** Signs webhooks and, through a derived key, seals checkout sessions. */
  secret: string;
  /** The product's public URL: checkout pages are served under it. */
  publicUrl: string;
  /** Where events are delivered: the product's own webhook route, as a real provider would call it. */
  webhookUrl: string;
  logger: Logger;
  /** How long a checkout session can be paid; Stripe's default is 24 hours. */
  sessionTtlSeconds?: number;
  delivery?: { attempts?: number; firstBackoffMs?: number; timeoutMs?: number };
  now?: () => Date;
}

/** A checkout session as the hosted page sees it, read back from its sealed token. */
export interface SandboxSession {
  sessionId: string;
  paymentId: string;
  amountCents: number;
  currency: string;
  description: string;
  customerEmail: string;
  locale: 'en' | 'fr';
  /** With the session id already in place of CHECKOUT_SESSION_ID. */
  successUrl: string;
  cancelUrl: string;
  expiresAt: Date;
}

export type OpenedSession =
  | { status: 'open'; session: SandboxSession }
  | { status: 'expired'; session: SandboxSession }
  | { status: 'invalid' };

export type SandboxPaymentResult =
  /** The form's checks failed; nothing was sent anywhere. */
  | { outcome: 'invalid_card'; problems: Partial<Record<CardField, CardProblem>> }
  /** The test card was declined; the failure was reported to the product (if it could be). */
  | { outcome: 'declined'; reason: DeclineReason }
  /** Paid, and the product acknowledged the signed webhook: send the browser to `redirectTo`. */
  | { outcome: 'paid'; redirectTo: string }
  /** Paid, but the product never acknowledged the webhook: do not claim success. */
  | { outcome: 'undelivered' };

const sealedSessionSchema = z.object({
  v: z.literal(1),
  s: z.string(),
  p: z.string(),
  a: z.int().positive(),
  c: z.string(),
  d: z.string(),
  e: z.string(),
  l: z.enum(['en', 'fr']),
  ok: z.string(),
  no: z.string(),
  x: z.int(),
});

/** The body of a sandbox webhook. */
const sandboxEventSchema = z.object({
  id: z.string().min(1),
  object: z.literal('event'),
  type: z.enum(['checkout.session.paid', 'checkout.session.payment_failed']),
  created: z.int(),
  data: z.object({
    session_id: z.string().min(1),
    payment_id: z.string().min(1),
    amount: z.int().nonnegative(),
    currency: z.string(),
    transaction: z.string().nullable(),
    card: z.object({ brand: z.string(), last4: z.string() }),
    failure_reason: z.string().nullable(),
  }),
});
type SandboxEvent = z.infer<typeof sandboxEventSchema>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The built-in payment provider of the embedded default: a hosted checkout page served by the
 * product itself, clearly in test mode, accepting Stripe's test cards. It keeps no state: a
 * session is sealed (AES-256-GCM) into the token of its checkout URL, so any node can serve the
 * page and nobody can read or alter the amount, the payment or the return addresses in it. After
 * a card is accepted or declined the outcome travels as a signed webhook over HTTP to the product's
 * webhook route, the same path and the same verification as a real provider.
 */
export class SandboxPaymentProvider implements PaymentProvider {
  readonly id = 'sandbox' as const;
  readonly #sealKey: Buffer;
  readonly #now: () => Date;

  constructor(private readonly options: SandboxOptions) {
    this.#sealKey = createHmac('sha256', options.secret).update('sandbox checkout session').digest();
    this.#now = options.now ?? (() => new Date());
  }

  createCheckoutSession(request: CheckoutSessionRequest): Promise<CheckoutSession> {
    if (!Number.isInteger(request.amountCents) || request.amountCents <= 0) {
      return Promise.reject(new AppError('BAD_REQUEST', 'A checkout amount is a positive number of cents.'));
    }
    // The metadata is left out: the sandbox has no dashboard to show it in.
    const sessionId = `cs_sandbox_${randomSecret(18)}`;
    const expiresAt = new Date(this.#now().getTime() + (this.options.sessionTtlSeconds ?? 86_400) * 1000);
    const token = this.#seal({
      v: 1,
      s: sessionId,
      p: request.paymentId,
      a: request.amountCents,
      c: request.currency,
      d: request.description,
      e: request.customerEmail,
      l: request.locale,
      ok: request.successUrl,
      no: request.cancelUrl,
      x: Math.floor(expiresAt.getTime() / 1000),
    });
    const checkoutUrl = `${this.options.publicUrl}${sandboxCheckoutPath}?session=${token}`;
    return Promise.resolve({ sessionId, checkoutUrl, expiresAt });
  }

  verifyWebhook(rawBody: Buffer, headers: WebhookHeaders): Promise<PaymentEvent | null> {
    return Promise.resolve().then(() => this.#readEvent(rawBody, headers));
  }

  #readEvent(rawBody: Buffer, headers: WebhookHeaders): PaymentEvent {
    verifySignatureHeader(rawBody, headerValue(headers, sandboxSignatureHeader), this.options.secret, {
      now: this.#now(),
    });
    let event: SandboxEvent;
    try {
      event = sandboxEventSchema.parse(JSON.parse(rawBody.toString('utf8')));
    } catch (error) {
      // Signed by us yet unreadable: a bug, not an attack.
      throw new AppError('BAD_REQUEST', 'The sandbox event is not readable.', undefined, { cause: error });
    }
    const { data } = event;
    return {
      provider: 'sandbox',
      eventId: event.id,
      type: event.type === 'checkout.session.paid' ? 'succeeded' : 'failed',
      sessionId: data.session_id,
      paymentId: data.payment_id,
      amountCents: data.amount,
      currency: data.currency,
      transactionNumber: data.transaction,
      card: data.card,
      failureReason: data.failure_reason,
      occurredAt: new Date(event.created * 1000),
    };
  }

  /** Reads the session out of a checkout URL's token; `invalid` for anything forged or damaged. */
  openSession(token: string): OpenedSession {
    const sealed = this.#unseal(token);
    if (!sealed) return { status: 'invalid' };
    const session: SandboxSession = {
      sessionId: sealed.s,
      paymentId: sealed.p,
      amountCents: sealed.a,
      currency: sealed.c,
      description: sealed.d,
      customerEmail: sealed.e,
      locale: sealed.l,
      successUrl: sealed.ok.split(CHECKOUT_SESSION_ID).join(encodeURIComponent(sealed.s)),
      cancelUrl: sealed.no,
      expiresAt: new Date(sealed.x * 1000),
    };
    return session.expiresAt <= this.#now() ? { status: 'expired', session } : { status: 'open', session };
  }

  /**
   * Charges a test card for an open session: the form's checks, then the test card's outcome,
   * then the signed webhook to the product. Success is claimed only once the product acknowledged it.
   */
  async pay(session: SandboxSession, input: CardInput): Promise<SandboxPaymentResult> {
    const checked = checkCard(input, this.#now());
    if (!checked.ok) return { outcome: 'invalid_card', problems: checked.problems };
    const outcome = testCardOutcome(checked.card);
    const event: SandboxEvent = {
      id: `evt_sandbox_${randomSecret(18)}`,
      object: 'event',
      type: outcome.approved ? 'checkout.session.paid' : 'checkout.session.payment_failed',
      created: Math.floor(this.#now().getTime() / 1000),
      data: {
        session_id: session.sessionId,
        payment_id: session.paymentId,
        amount: session.amountCents,
        currency: session.currency,
        transaction: outcome.approved ? `pi_sandbox_${randomSecret(18)}` : null,
        card: { brand: checked.card.brand, last4: checked.card.last4 },
        failure_reason: outcome.approved ? null : outcome.reason,
      },
    };
    const delivered = await this.#deliver(event);
    if (!outcome.approved) return { outcome: 'declined', reason: outcome.reason };
    return delivered ? { outcome: 'paid', redirectTo: session.successUrl } : { outcome: 'undelivered' };
  }

  /** POSTs the event to the webhook URL; retries network failures, 5xx, 408 and 429 with backoff. */
  async #deliver(event: SandboxEvent): Promise<boolean> {
    const body = JSON.stringify(event);
    const attempts = this.options.delivery?.attempts ?? 3;
    let backoffMs = this.options.delivery?.firstBackoffMs ?? 250;
    const log = this.options.logger.child({ eventId: event.id, sessionId: event.data.session_id });
    for (let attempt = 1; attempt <= attempts; attempt += 1) {
      let retryable = true;
      try {
        const response = await fetch(this.options.webhookUrl, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'user-agent': 'Verbatim-Sandbox-Checkout/1',
            // Signed at each attempt, as Stripe does: a retry is not refused as a replay.
            [sandboxSignatureHeader]: signatureHeader(
              body,
              this.options.secret,
              Math.floor(this.#now().getTime() / 1000),
            ),
          },
          body,
          redirect: 'error',
          signal: AbortSignal.timeout(this.options.delivery?.timeoutMs ?? 10_000),
        });
        await response.body?.cancel();
        if (response.ok) return true;
        retryable = response.status >= 500 || response.status === 408 || response.status === 429;
        log.warn({ status: response.status, attempt }, 'sandbox webhook refused');
      } catch (error) {
        log.warn({ err: error, attempt }, 'sandbox webhook delivery failed');
      }
      if (!retryable) break;
      if (attempt < attempts) {
        await sleep(backoffMs);
        backoffMs *= 4;
      }
    }
    log.error({ type: event.type, webhookUrl: this.options.webhookUrl }, 'sandbox webhook not delivered');
    return false;
  }

  #seal(session: z.infer<typeof sealedSessionSchema>): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#sealKey, iv);
    const encrypted = Buffer.concat([cipher.update(JSON.stringify(session), 'utf8'), cipher.final()]);
    return Buffer.concat([iv, encrypted, cipher.getAuthTag()]).toString('base64url');
  }

  #unseal(token: string): z.infer<typeof sealedSessionSchema> | undefined {
    if (!/^[\w-]{40,8192}$/.test(token)) return undefined;
    const bytes = Buffer.from(token, 'base64url');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#sealKey, bytes.subarray(0, 12));
      decipher.setAuthTag(bytes.subarray(bytes.length - 16));
      const plain = Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()]);
      const parsed = sealedSessionSchema.safeParse(JSON.parse(plain.toString('utf8')));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }
}
