import { z } from 'zod';
import { defineJob } from '../../platform/queue/job-definition.js';

/**
 * Looks the address up and, when an account has it, e-mails a recovery link. Done in the
 * background so the request takes the same time whether or not the address is known.
 */
export const sendRecoveryLinkJob = defineJob({
  name: 'password-recovery-link',
  payload: z.object({
    email: z.string().min(1),
    ip: z.string().nullable(),
    userAgent: z.string().nullable(),
  }),
  retry: { limit: 3, delaySeconds: 10, backoff: true },
  timeoutSeconds: 60,
});
