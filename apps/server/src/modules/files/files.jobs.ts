import { z } from 'zod';
import { defineJob } from '../../platform/queue/job-definition.js';

/**
 * Transcribes one uploaded file. A failed attempt (engine busy or unavailable, a crash) is retried
 * with backoff; the file's own claim makes a repeated or duplicated job harmless. Long recordings
 * take long: the timeout only bounds a stuck attempt, a dead worker is detected by its heartbeat.
 */
export const transcribeFileJob = defineJob({
  name: 'files-transcribe',
  payload: z.object({ fileId: z.string().min(1) }),
  retry: { limit: 4, delaySeconds: 15, backoff: true },
  timeoutSeconds: 8 * 3600,
});

/** One delivery attempt of a webhook message; the service schedules the next one itself. */
export const deliverWebhookJob = defineJob({
  name: 'files-deliver-webhook',
  payload: z.object({ messageId: z.string().min(1) }),
  retry: { limit: 3, delaySeconds: 10, backoff: true },
  timeoutSeconds: 120,
});
