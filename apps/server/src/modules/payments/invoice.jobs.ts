import { z } from 'zod';
import { defineJob } from '../../platform/queue/job-definition.js';

/**
 * Renders an issued invoice's PDF and keeps it in file storage. Done by a worker, not in the
 * webhook's request: rendering takes tens of milliseconds of CPU, and the provider should get its
 * answer as soon as the credit is committed. A download before the job ran renders the same bytes.
 */
export const storeInvoicePdfJob = defineJob({
  name: 'invoice-pdf',
  payload: z.object({ invoiceId: z.string().min(1) }),
  retry: { limit: 5, delaySeconds: 10, backoff: true },
  timeoutSeconds: 120,
});
