import type { z } from 'zod';

export interface RetryPolicy {
  /** Attempts after the first one. */
  limit: number;
  /** Seconds before the first retry; doubled each time when `backoff` is set. */
  delaySeconds: number;
  backoff: boolean;
}

/** A kind of job: its queue name, the schema of its payload and how it is retried. */
export interface JobDefinition<Payload extends z.ZodType = z.ZodType> {
  name: string;
  payload: Payload;
  retry: RetryPolicy;
  /** Seconds a single attempt may run before it counts as failed. */
  timeoutSeconds: number;
}

export interface JobContext {
  jobId: string;
  /** 0 on the first attempt. */
  retryCount: number;
  /** True when this attempt is the last one the retry policy allows. */
  isLastAttempt: boolean;
}

export type JobHandler<Definition extends JobDefinition> = (
  payload: z.output<Definition['payload']>,
  context: JobContext,
) => Promise<void>;

export function defineJob<Payload extends z.ZodType>(
  definition: JobDefinition<Payload>,
): JobDefinition<Payload> {
  return definition;
}

/** The name of the queue where jobs of this kind land once they have used up their retries. */
export function deadLetterQueueOf(definition: JobDefinition): string {
  return `${definition.name}__dead`;
}
