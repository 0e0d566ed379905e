import { createHash } from 'node:crypto';
import type { CrmDelivery, SendTextToCrmRequest, SendToCrmRequest } from '@verbatim/contracts';
import type { Logger } from 'pino';
import { z } from 'zod';
import { AppError } from '../../errors/app-error.js';
import { newId } from '../../lib/ids.js';
import { defineJob, type JobContext } from '../../platform/queue/job-definition.js';
import type { JobQueue } from '../../platform/queue/job-queue.js';
import type { CrmProviders } from './crm-providers.js';
import type { IntegrationTokens } from './integration-tokens.js';
import type { DeliveryRow, IntegrationsRepository } from './integrations.repository.js';
import { appErrorOf, notFound } from './integrations.service.js';
import { CrmProviderError } from './providers/crm-provider.js';
import { transcriptBody, type CrmTranscript, type TranscriptSource } from './transcript-source.js';

/** A text sent without a stored transcript (a live session's). */
interface SentText {
  text: string;
  title: string | null;
}

/**
 * One attempt to create a delivery's note or task. Retries are scheduled by the handler itself
 * (after the provider's Retry-After on 429, with backoff on 5xx), so the queue's own retries only
 * cover a crash in the middle of an attempt.
 */
export const deliverToCrmJob = defineJob({
  name: 'crm-deliver',
  payload: z.object({ deliveryId: z.string().min(1) }),
  retry: { limit: 3, delaySeconds: 30, backoff: true },
  timeoutSeconds: 120,
});

export interface DeliveryPolicy {
  /** Attempts before a delivery is given up. */
  maxAttempts: number;
  /** Delay before the first retry after a 5xx; doubled each time, at most `maxDelaySeconds`. */
  baseDelaySeconds: number;
  maxDelaySeconds: number;
}

export const defaultDeliveryPolicy: DeliveryPolicy = {
  maxAttempts: 8,
  baseDelaySeconds: 10,
  maxDelaySeconds: 900,
};

/** Transcripts sent to a contact's record, as a note or a task, through the queue. */
export class CrmDeliveriesService {
  constructor(
    private readonly deps: {
      repository: IntegrationsRepository;
      providers: CrmProviders;
      tokens: IntegrationTokens;
      transcripts: TranscriptSource;
      queue: JobQueue;
      logger: Logger;
      policy?: DeliveryPolicy;
    },
  ) {}

  get #policy(): DeliveryPolicy {
    return this.deps.policy ?? defaultDeliveryPolicy;
  }

  /**
   * Queues the delivery, or answers the existing one for the same transcript, contact and kind (or
   * the same Idempotency-Key); a failed one is tried again.
   */
  async send(
    accountId: string,
    transcriptId: string,
    request: SendToCrmRequest,
    idempotencyKey: string | null,
    text?: SentText,
  ): Promise<CrmDelivery> {
    const { repository } = this.deps;
    const integration = await repository.find(accountId, request.integrationId);
    if (!integration) throw notFound();
    const key = {
      integrationId: integration.id,
      transcriptId,
      contactId: request.contactId,
      kind: request.as,
      idempotencyKey,
    };
    const existing = await repository.findSameDelivery(accountId, key);
    if (existing) return this.#retryIfFailed(existing);
    if (!text && !(await this.deps.transcripts.find(accountId, transcriptId))) {
      throw new AppError('NOT_FOUND', 'No done transcript with this id.');
    }
    const inserted = await repository.insertDelivery({
      id: newId('dlv'),
      account_id: accountId,
      integration_id: integration.id,
      provider: integration.provider,
      transcript_id: transcriptId,
      contact_id: request.contactId,
      kind: request.as,
      task_subject: request.as === 'task' ? request.task.subject : null,
      task_due_at: request.as === 'task' ? new Date(request.task.dueAt) : null,
      idempotency_key: idempotencyKey,
      last_error_code: null,
      last_error: null,
      record_id: null,
      record_url: null,
      delivered_at: null,
      source_text: text?.text ?? null,
      source_title: text?.title ?? null,
      updated_at: new Date(),
    });
    if (!inserted) {
      // A parallel request inserted the same delivery first.
      const same = await repository.findSameDelivery(accountId, key);
      if (!same) throw new Error('delivery neither inserted nor found');
      return deliveryOf(same);
    }
    await this.deps.queue.send(deliverToCrmJob, { deliveryId: inserted.id });
    return deliveryOf(inserted);
  }

  /**
   * A text that is not a stored transcript (a live session's) sent to a contact: kept with the
   * delivery, whose transcript id is derived from the text, so the same text, contact and kind twice
   * make one record.
   */
  sendText(
    accountId: string,
    request: SendTextToCrmRequest,
    idempotencyKey: string | null,
  ): Promise<CrmDelivery> {
    const transcriptId = `txt_${createHash('sha256').update(request.text).digest('hex').slice(0, 32)}`;
    return this.send(accountId, transcriptId, request.crm, idempotencyKey, {
      text: request.text,
      title: request.title ?? null,
    });
  }

  /**
   * Checked when an upload asks for a delivery: the connection must be the account's (404
   * CRM_NOT_CONNECTED) and the contact one of its CRM account (400 VALIDATION_FAILED on crm.contactId).
   */
  async assertTarget(accountId: string, request: SendToCrmRequest): Promise<void> {
    const integration = await this.deps.repository.find(accountId, request.integrationId);
    if (!integration) {
      throw new AppError('CRM_NOT_CONNECTED', 'No CRM connection of this account has this integrationId.');
    }
    const provider = this.deps.providers.get(integration.provider);
    let exists: boolean;
    try {
      exists = await this.deps.tokens.use(integration, (credentials) =>
        provider.hasContact(credentials, request.contactId),
      );
    } catch (error) {
      throw appErrorOf(error, provider);
    }
    if (!exists) {
      const message = `${provider.name} has no contact with this id in the connected account.`;
      throw new AppError('VALIDATION_FAILED', message, [
        { location: 'body', path: ['crm', 'contactId'], message },
      ]);
    }
  }

  /**
   * The delivery an upload asked for, queued once its transcript is done. Failures are logged, not
   * thrown: the transcript is done whatever the CRM says, and the delivery can be sent again by hand.
   */
  async sendWhenDone(accountId: string, fileId: string, request: SendToCrmRequest): Promise<void> {
    try {
      const delivery = await this.send(accountId, fileId, request, null);
      this.deps.logger.info({ fileId, deliveryId: delivery.id }, 'CRM delivery of an upload queued');
    } catch (error) {
      this.deps.logger.warn({ err: error, fileId }, 'CRM delivery asked at upload could not be queued');
    }
  }

  async #retryIfFailed(row: DeliveryRow): Promise<CrmDelivery> {
    if (row.status !== 'failed' || row.integration_id === null) return deliveryOf(row);
    const requeued = await this.deps.repository.requeueDelivery(row.id);
    if (!requeued) return deliveryOf(row);
    await this.deps.queue.send(deliverToCrmJob, { deliveryId: requeued.id });
    return deliveryOf(requeued);
  }

  /** The transcript's deliveries, newest first; NOT_FOUND for a transcript that is not the account's. */
  async list(accountId: string, transcriptId: string): Promise<CrmDelivery[]> {
    const rows = await this.deps.repository.listDeliveries(accountId, transcriptId);
    // Deliveries outlive their transcript; without any, only the account's own transcripts answer.
    if (rows.length === 0 && !(await this.deps.transcripts.find(accountId, transcriptId))) {
      throw new AppError('NOT_FOUND', 'No done transcript with this id.');
    }
    return rows.map(deliveryOf);
  }

  /** Deliveries that waited for this connection to be reconnected go back in the queue. */
  async resumeAfterReconnect(integrationId: string): Promise<void> {
    for (const waiting of await this.deps.repository.waitingForReconnect(integrationId)) {
      const requeued = await this.deps.repository.requeueDelivery(waiting.id);
      if (requeued) await this.deps.queue.send(deliverToCrmJob, { deliveryId: requeued.id });
    }
  }

  /** The job: one attempt at creating the note or task. */
  async deliver(deliveryId: string, _context?: JobContext): Promise<void> {
    const { repository, logger } = this.deps;
    const delivery = await repository.claimDelivery(deliveryId, deliverToCrmJob.timeoutSeconds * 1000);
    if (!delivery) return; // delivered, given up, or taken by another attempt
    const log = logger.child({ deliveryId, provider: delivery.provider, attempt: delivery.attempts });
    const integration = delivery.integration_id
      ? await repository.findById(delivery.integration_id)
      : undefined;
    if (!integration) {
      await repository.updateDelivery(deliveryId, {
        status: 'failed',
        lastErrorCode: 'NOT_FOUND',
        lastError: 'The integration was disconnected before the transcript could be sent.',
      });
      return;
    }
    if (integration.status === 'needs_reconnect') {
      await this.#waitForReconnect(deliveryId);
      return;
    }
    const transcript =
      delivery.source_text === null
        ? await this.deps.transcripts.find(delivery.account_id, delivery.transcript_id)
        : sentTextTranscript(delivery, delivery.source_text);
    if (!transcript) {
      await repository.updateDelivery(deliveryId, {
        status: 'failed',
        lastErrorCode: 'NOT_FOUND',
        lastError: 'The transcript no longer exists.',
      });
      return;
    }
    const provider = this.deps.providers.get(integration.provider);
    const body = transcriptBody(transcript, provider.maxBodyChars);
    try {
      const record = await this.deps.tokens.use(integration, (credentials) =>
        delivery.kind === 'task'
          ? provider.createTask(credentials, {
              contactId: delivery.contact_id,
              subject: delivery.task_subject ?? `Follow up: ${transcript.fileName}`,
              dueAt: delivery.task_due_at ?? new Date(Date.now() + 86_400_000),
              body,
              timestamp: new Date(),
            })
          : provider.createNote(credentials, {
              contactId: delivery.contact_id,
              body,
              timestamp: transcript.date,
            }),
      );
      await repository.updateDelivery(deliveryId, {
        status: 'delivered',
        lastErrorCode: null,
        lastError: null,
        recordId: record.id,
        recordUrl: provider.recordUrl(
          { externalAccount: integration.external_account, webDomain: integration.web_domain },
          delivery.contact_id,
          record,
        ),
        deliveredAt: new Date(),
      });
      log.info({ recordId: record.id }, 'transcript delivered to the CRM');
    } catch (error) {
      await this.#failed(delivery, error, log);
    }
  }

  async #waitForReconnect(deliveryId: string): Promise<void> {
    await this.deps.repository.updateDelivery(deliveryId, {
      status: 'waiting_reconnect',
      lastErrorCode: 'CRM_RECONNECT_REQUIRED',
      lastError:
        'The CRM refused the connection: reconnect it on the Integrations page and the delivery resumes.',
    });
  }

  async #failed(delivery: DeliveryRow, error: unknown, log: Logger): Promise<void> {
    const failure = error instanceof CrmProviderError ? error : undefined;
    if (failure?.failure === 'unauthorized') {
      await this.#waitForReconnect(delivery.id);
      return;
    }
    const message = failure ? failure.message : 'Unexpected error while sending';
    if (!failure) log.error({ err: error }, 'CRM delivery attempt failed');
    const retryable = !failure || failure.failure === 'rate_limited' || failure.failure === 'unavailable';
    const code = failure?.failure === 'rate_limited' ? 'CRM_RATE_LIMITED' : 'CRM_PROVIDER_ERROR';
    const policy = this.#policy;
    if (!retryable || delivery.attempts >= policy.maxAttempts) {
      await this.deps.repository.updateDelivery(delivery.id, {
        status: 'failed',
        lastErrorCode: code,
        lastError: message,
      });
      log.warn({ reason: message }, 'CRM delivery given up');
      return;
    }
    const delaySeconds =
      failure?.retryAfterSeconds ??
      Math.min(policy.maxDelaySeconds, policy.baseDelaySeconds * 2 ** Math.max(0, delivery.attempts - 1));
    await this.deps.repository.updateDelivery(delivery.id, {
      status: 'queued',
      lastErrorCode: code,
      lastError: message,
    });
    await this.deps.queue.send(
      deliverToCrmJob,
      { deliveryId: delivery.id },
      { startAfter: new Date(Date.now() + delaySeconds * 1000) },
    );
    log.info({ reason: message, delaySeconds }, 'CRM delivery will be retried');
  }
}

function sentTextTranscript(delivery: DeliveryRow, text: string): CrmTranscript {
  return {
    id: delivery.transcript_id,
    fileName: delivery.source_title ?? 'Live transcription',
    date: delivery.created_at,
    language: null,
    durationSeconds: null,
    text,
    url: null,
  };
}

export function deliveryOf(row: DeliveryRow): CrmDelivery {
  return {
    id: row.id,
    transcriptId: row.transcript_id,
    integrationId: row.integration_id,
    provider: row.provider,
    contactId: row.contact_id,
    kind: row.kind,
    status: row.status,
    attempts: row.attempts,
    lastErrorCode: row.last_error_code,
    lastError: row.last_error,
    recordUrl: row.record_url,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
