import { z } from 'zod';
import { defineJob } from '../../platform/queue/job-definition.js';

/** Delivers one stored e-mail message; retried with backoff for about an hour before it is given up. */
export const deliverEmailJob = defineJob({
  name: 'email-deliver',
  payload: z.object({ messageId: z.string().min(1) }),
  retry: { limit: 8, delaySeconds: 15, backoff: true },
  timeoutSeconds: 120,
});
