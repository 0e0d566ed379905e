import type { z } from 'zod';
import type { JobDefinition, JobHandler } from './job-definition.js';

export interface SendOptions {
  /** Run no earlier than this. */
  startAfter?: Date;
  /** At most one queued job with this key exists at a time. */
  singletonKey?: string;
}

/** Durable background jobs. One implementation (pg-boss) on PGlite or PostgreSQL. */
export interface JobQueue {
  /** Validates the payload against the definition, then stores the job. Returns its id. */
  send<Definition extends JobDefinition>(
    definition: Definition,
    payload: z.input<Definition['payload']>,
    options?: SendOptions,
  ): Promise<string>;
  /** Starts consuming jobs of this kind in this process. */
  work<Definition extends JobDefinition>(
    definition: Definition,
    handler: JobHandler<Definition>,
  ): Promise<void>;
  /** Stops taking new jobs, lets running ones finish (up to the timeout), then detaches. */
  stop(timeoutMs: number): Promise<void>;
}
