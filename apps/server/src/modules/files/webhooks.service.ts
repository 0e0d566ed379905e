import type { TranscriptWebhook, WebhookAttempt } from '@verbatim/contracts';
import type { Logger } from 'pino';
import { AppError } from '../../errors/app-error.js';
import { newId } from '../../lib/ids.js';
import type { TokenSealer } from '../../platform/crypto/token-sealer.js';
import type { Db } from '../../platform/db/database.js';
import { AddressRefusedError, outboundRequest } from '../../platform/net/outbound-http.js';
import type { JobQueue } from '../../platform/queue/job-queue.js';
import { deliverWebhookJob } from './files.jobs.js';
import { newWebhookSecret, signWebhook } from './webhook-signature.js';

export interface WebhooksOptions {
  db: Db;
  queue: JobQueue;
  /** The product's address, for the transcript link in each message. */
  publicUrl: string;
  /** Seals the signing secrets at rest (AES-256-GCM, the integrations' token key). */
  sealer: TokenSealer;
  allowPrivateAddresses: boolean;
  /** Deliver nothing: every attempt fails at once, logged (OUTBOUND_HTTP_DISABLED). */
  outboundDisabled?: boolean;
  timeoutMs: number;
  firstRetryDelaySeconds: number;
  logger: Logger;
  /** The time: each message's creation, each attempt, the retry schedule and its 24 h window. */
  now?: () => Date;
}

/** Retries go on for a day after the event (Standard Webhooks' usual schedule spans about as long). */
const retryWindowMs = 24 * 3600 * 1000;
/** No wait between two attempts longer than this. */
const maxRetryDelayMs = 4 * 3600 * 1000;

/**
 * Signed webhooks of submitted files: one message per outcome (and per resend), delivered by the
 * queue, each attempt logged; a non-2xx answer, a timeout or a refused address is retried with a
 * doubling delay for 24 hours.
 */
export class WebhooksService {
  readonly #now: () => Date;

  constructor(private readonly options: WebhooksOptions) {
    this.#now = options.now ?? (() => new Date());
  }

  /** The account's signing secret, created on first use (stored sealed, never in plain text). */
  async secretOf(accountId: string): Promise<string> {
    await this.options.db
      .insertInto('webhook_secrets')
      .values({ account_id: accountId, secret: this.#seal(accountId, newWebhookSecret()) })
      .onConflict((conflict) => conflict.column('account_id').doNothing())
      .execute();
    const row = await this.options.db
      .selectFrom('webhook_secrets')
      .select('secret')
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    if (!isPlainSecret(row.secret)) return this.options.sealer.open(row.secret, secretContext(accountId));
    await this.#sealStored(accountId, row.secret);
    return row.secret;
  }

  /** A new secret; messages signed from now on use it. */
  async rotateSecret(accountId: string): Promise<string> {
    const secret = newWebhookSecret();
    const sealed = this.#seal(accountId, secret);
    await this.options.db
      .insertInto('webhook_secrets')
      .values({ account_id: accountId, secret: sealed })
      .onConflict((conflict) =>
        conflict.column('account_id').doUpdateSet({ secret: sealed, created_at: this.#now() }),
      )
      .execute();
    return secret;
  }

  /**
   * Seals the secrets stored in plain text before they were sealed at rest (at start-up); answers
   * how many. Each is kept as it was, so webhooks signed before still verify.
   */
  async sealPlainSecrets(): Promise<number> {
    const plain = await this.options.db
      .selectFrom('webhook_secrets')
      .select(['account_id', 'secret'])
      .where('secret', 'like', 'whsec\\_%')
      .execute();
    for (const row of plain) await this.#sealStored(row.account_id, row.secret);
    if (plain.length > 0) this.options.logger.info({ count: plain.length }, 'webhook signing secrets sealed');
    return plain.length;
  }

  #seal(accountId: string, secret: string): string {
    return this.options.sealer.seal(secret, secretContext(accountId));
  }

  async #sealStored(accountId: string, plain: string): Promise<void> {
    await this.options.db
      .updateTable('webhook_secrets')
      .set({ secret: this.#seal(accountId, plain) })
      .where('account_id', '=', accountId)
      .where('secret', '=', plain)
      .execute();
  }

  /** Queues the message of a finished file, when it has a webhook URL. */
  async notify(fileId: string): Promise<string | undefined> {
    const file = await this.options.db
      .selectFrom('submitted_files')
      .selectAll()
      .where('id', '=', fileId)
      .executeTakeFirst();
    if (!file?.callback_url || (file.status !== 'done' && file.status !== 'processing_failed'))
      return undefined;
    const body: TranscriptWebhook = {
      type: file.status === 'done' ? 'transcript.done' : 'transcript.failed',
      fileId: file.id,
      status: file.status,
      language: file.detected_language ?? (file.language_code === 'auto' ? null : file.language_code),
      duration: file.duration_seconds,
      ...(file.failure_reason ? { failureReason: file.failure_reason } : {}),
      transcriptUrl: `${this.options.publicUrl}/api/v1/transcripts/download?fileIds=${encodeURIComponent(file.id)}&format=application%2Fjson`,
    };
    const id = newId('msg');
    const now = this.#now();
    await this.options.db
      .insertInto('webhook_messages')
      .values({
        id,
        account_id: file.account_id,
        file_id: file.id,
        url: file.callback_url,
        payload: JSON.stringify(body),
        // The retry window counts from here, on the same clock as the attempts (not the database's).
        created_at: now,
        next_attempt_at: now,
      })
      .execute();
    await this.options.queue.send(deliverWebhookJob, { messageId: id });
    return id;
  }

  /** "Resend" from the console: a new message for a finished file. */
  async resend(accountId: string, fileId: string): Promise<string> {
    const file = await this.options.db
      .selectFrom('submitted_files')
      .select(['id', 'callback_url', 'status'])
      .where('id', '=', fileId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    if (!file) throw new AppError('NOT_FOUND', 'No such file.');
    if (!file.callback_url) {
      throw new AppError('WEBHOOK_URL_MISSING', 'This file has no webhook URL: there is nothing to resend.');
    }
    const id = await this.notify(fileId);
    if (!id)
      throw new AppError(
        'TRANSCRIPT_NOT_READY',
        'The file is still being processed: its webhook is sent when it is done.',
      );
    return id;
  }

  async attempts(accountId: string, fileId: string): Promise<WebhookAttempt[]> {
    const file = await this.options.db
      .selectFrom('submitted_files')
      .select('id')
      .where('id', '=', fileId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    if (!file) throw new AppError('NOT_FOUND', 'No such file.');
    const rows = await this.options.db
      .selectFrom('webhook_attempts as a')
      .innerJoin('webhook_messages as m', 'm.id', 'a.message_id')
      .selectAll('a')
      .where('m.file_id', '=', fileId)
      .orderBy('a.at', 'desc')
      .orderBy('a.attempt', 'desc')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      messageId: row.message_id,
      attempt: row.attempt,
      at: row.at.toISOString(),
      url: row.url,
      statusCode: row.status_code,
      error: row.error,
      durationMs: row.duration_ms,
      succeeded: row.succeeded,
      nextAttemptAt: row.next_attempt_at?.toISOString() ?? null,
    }));
  }

  /** One attempt of a message (a job); schedules the next one when this one fails. */
  async deliver(messageId: string): Promise<void> {
    const { db, logger } = this.options;
    const message = await db
      .selectFrom('webhook_messages')
      .selectAll()
      .where('id', '=', messageId)
      .executeTakeFirst();
    if (!message || message.status !== 'pending') return;
    const attempt = message.attempts + 1;
    const attemptedAt = this.#now();
    // A retry whose run comes after the window (the workers were down) is not made: the message
    // has failed. The first attempt is always made, however late.
    if (attempt > 1 && attemptedAt.getTime() > message.created_at.getTime() + retryWindowMs) {
      await db
        .updateTable('webhook_messages')
        .set({ status: 'failed', next_attempt_at: null })
        .where('id', '=', message.id)
        .where('status', '=', 'pending')
        .execute();
      logger.info(
        { messageId: message.id, fileId: message.file_id, attempts: message.attempts },
        'webhook retry window over; not retried',
      );
      return;
    }
    const secret = await this.secretOf(message.account_id);
    const timestamp = Math.floor(attemptedAt.getTime() / 1000);
    const started = performance.now();
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      const response = await outboundRequest({
        method: 'POST',
        url: new URL(message.url),
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Verbatim-Webhooks/1',
          'webhook-id': message.id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signWebhook(secret, message.id, timestamp, message.payload),
        },
        body: message.payload,
        timeoutMs: this.options.timeoutMs,
        allowPrivateAddresses: this.options.allowPrivateAddresses,
        disabled: this.options.outboundDisabled ?? false,
      });
      statusCode = response.statusCode;
      response.body.resume();
      if (statusCode < 200 || statusCode > 299) error = `The receiver answered HTTP ${statusCode}`;
    } catch (caught) {
      error =
        caught instanceof AddressRefusedError
          ? `Refused: ${caught.message}`
          : `No answer: ${caught instanceof Error ? caught.message : String(caught)}`;
    }
    const durationMs = Math.round(performance.now() - started);
    const succeeded = error === null;
    const delayMs = Math.min(
      maxRetryDelayMs,
      this.options.firstRetryDelaySeconds * 1000 * 2 ** (attempt - 1),
    );
    const nextAt = new Date(attemptedAt.getTime() + delayMs);
    const retry = !succeeded && nextAt.getTime() <= message.created_at.getTime() + retryWindowMs;
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('webhook_attempts')
        .values({
          id: newId('wha'),
          message_id: message.id,
          attempt,
          at: attemptedAt,
          url: message.url,
          status_code: statusCode,
          error,
          duration_ms: durationMs,
          succeeded,
          next_attempt_at: retry ? nextAt : null,
        })
        .execute();
      await trx
        .updateTable('webhook_messages')
        .set({
          attempts: attempt,
          status: succeeded ? 'delivered' : retry ? 'pending' : 'failed',
          next_attempt_at: retry ? nextAt : null,
        })
        .where('id', '=', message.id)
        .execute();
    });
    logger.info(
      { messageId: message.id, fileId: message.file_id, attempt, statusCode, error, durationMs, retry },
      succeeded ? 'webhook delivered' : 'webhook attempt failed',
    );
    if (retry)
      await this.options.queue.send(deliverWebhookJob, { messageId: message.id }, { startAfter: nextAt });
  }
}

/** What a sealed secret is bound to: a sealed value copied onto another account's row does not open. */
function secretContext(accountId: string): string {
  return `webhook-secret:${accountId}`;
}

/** A secret stored before they were sealed at rest (Standard Webhooks' `whsec_…`, in plain text). */
function isPlainSecret(stored: string): boolean {
  return stored.startsWith('whsec_');
}
