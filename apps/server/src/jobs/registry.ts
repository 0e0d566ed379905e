import {
  deliverToCrmJob,
  type CrmDeliveriesService,
} from '../modules/integrations/crm-deliveries.service.js';
import type { FileTranscriptionService } from '../modules/files/file-transcription.service.js';
import { deliverWebhookJob, transcribeFileJob } from '../modules/files/files.jobs.js';
import type { WebhooksService } from '../modules/files/webhooks.service.js';
import type { MailService } from '../modules/mail/mail.service.js';
import { storeInvoicePdfJob } from '../modules/payments/invoice.jobs.js';
import type { PaymentsService } from '../modules/payments/payments.service.js';
import { deliverEmailJob } from '../modules/mail/mail.jobs.js';
import { sendRecoveryLinkJob } from '../modules/recovery/recovery.jobs.js';
import type { RecoveryService } from '../modules/recovery/recovery.service.js';
import type { JobDefinition, JobHandler } from '../platform/queue/job-definition.js';
import type { JobQueue } from '../platform/queue/job-queue.js';

/** Every kind of job, known to producers (API) and consumers (workers) alike. */
export const jobDefinitions: readonly JobDefinition[] = [
  deliverEmailJob,
  sendRecoveryLinkJob,
  storeInvoicePdfJob,
  transcribeFileJob,
  deliverWebhookJob,
  deliverToCrmJob,
];

export interface JobServices {
  mail: MailService;
  recovery: RecoveryService;
  payments: PaymentsService;
  fileTranscription: FileTranscriptionService;
  webhooks: WebhooksService;
  crmDeliveries: CrmDeliveriesService;
}

interface JobBinding<Definition extends JobDefinition = JobDefinition> {
  definition: Definition;
  handler: JobHandler<Definition>;
}

function bind<Definition extends JobDefinition>(definition: Definition, handler: JobHandler<Definition>) {
  return { definition, handler } as JobBinding;
}

/** Which service method runs each kind of job. */
export function jobBindings(services: JobServices): JobBinding[] {
  return [
    bind(deliverEmailJob, (payload, context) => services.mail.deliver(payload.messageId, context)),
    bind(sendRecoveryLinkJob, (payload) =>
      services.recovery.sendRecoveryLink(payload.email, { ip: payload.ip, userAgent: payload.userAgent }),
    ),
    bind(storeInvoicePdfJob, (payload) => services.payments.storeInvoicePdf(payload.invoiceId)),
    bind(transcribeFileJob, (payload, context) =>
      services.fileTranscription.process(payload.fileId, context),
    ),
    bind(deliverWebhookJob, (payload) => services.webhooks.deliver(payload.messageId)),
    bind(deliverToCrmJob, (payload, context) => services.crmDeliveries.deliver(payload.deliveryId, context)),
  ];
}

export async function startWorkers(queue: JobQueue, services: JobServices): Promise<void> {
  for (const { definition, handler } of jobBindings(services)) await queue.work(definition, handler);
}
