import type { Logger } from 'pino';
import { newId } from '../../lib/ids.js';
import type { MailTransport } from '../../platform/mail/mail-transport.js';
import type { JobQueue } from '../../platform/queue/job-queue.js';
import type { JobContext } from '../../platform/queue/job-definition.js';
import { deliverEmailJob } from './mail.jobs.js';
import type { MailRepository } from './mail.repository.js';

export interface MailRequest {
  purpose: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/**
 * E-mail goes through the job queue: the message is stored first (so nothing is lost if the
 * transport is down), then delivered by a job that retries with backoff.
 */
export class MailService {
  constructor(
    private readonly repository: MailRepository,
    private readonly queue: JobQueue,
    private readonly transport: MailTransport,
    private readonly from: string,
    private readonly logger: Logger,
  ) {}

  /** Stores the message and queues its delivery; returns the message id. */
  async enqueue(request: MailRequest): Promise<string> {
    const id = newId('msg');
    await this.repository.insert({
      id,
      purpose: request.purpose,
      recipient: request.to,
      subject: request.subject,
      textBody: request.text,
      htmlBody: request.html ?? null,
    });
    await this.queue.send(deliverEmailJob, { messageId: id });
    return id;
  }

  /** The job handler: idempotent, so a job that runs again after a crash sends nothing twice. */
  async deliver(messageId: string, context: JobContext): Promise<void> {
    const message = await this.repository.find(messageId);
    if (!message) {
      this.logger.warn({ messageId }, 'mail to deliver does not exist; skipped');
      return;
    }
    if (message.status !== 'queued') return;
    try {
      const { transportMessageId } = await this.transport.send({
        from: this.from,
        to: message.recipient,
        subject: message.subject,
        text: message.text_body,
        ...(message.html_body ? { html: message.html_body } : {}),
        reference: message.id,
      });
      await this.repository.markSent(message.id, transportMessageId);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      await this.repository.recordFailure(message.id, reason, context.isLastAttempt);
      throw error;
    }
  }
}
