import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { DatabasePool } from '../db/pool.js';
import { deadLetterQueueOf, type JobDefinition, type JobHandler } from './job-definition.js';
import type { JobQueue, SendOptions } from './job-queue.js';

export interface PgBossQueueOptions {
  pool: DatabasePool;
  logger: Logger;
  definitions: readonly JobDefinition[];
  /** Jobs of one kind this process runs at the same time. */
  concurrency: number;
  pollingIntervalSeconds?: number;
}

/**
 * pg-boss on our own pool, so the same code runs on embedded PGlite (one session, one process)
 * and on PostgreSQL (any number of worker processes sharing the queue through SKIP LOCKED).
 */
export class PgBossQueue implements JobQueue {
  readonly #boss: PgBoss;
  readonly #options: PgBossQueueOptions;

  private constructor(boss: PgBoss, options: PgBossQueueOptions) {
    this.#boss = boss;
    this.#options = options;
  }

  static async start(options: PgBossQueueOptions): Promise<PgBossQueue> {
    const { pool, logger } = options;
    const boss = new PgBoss({
      db: {
        // pg-boss's own typing of values is any[]; we pass them through untouched.
        executeSql: (text: string, values: unknown[]) => pool.query<Record<string, unknown>>(text, values),
      },
      schema: 'pgboss',
      // A single PGlite session cannot afford a busy monitor; PostgreSQL does not need one either.
      monitorStateIntervalSeconds: 60,
    });
    boss.on('error', (error: unknown) => logger.error({ err: error }, 'job queue error'));
    // Processes starting together would deadlock in pg-boss's partition DDL: one at a time, its
    // start included (seen in CI: a process's createQueue against another's start).
    await withSetupLock(pool, async () => {
      await boss.start();
      for (const definition of options.definitions) {
        const deadLetter = deadLetterQueueOf(definition);
        await retriedOnDeadlock(() =>
          boss.createQueue(deadLetter, { name: deadLetter, retentionMinutes: 60 * 24 * 14 }),
        );
        const queue: PgBoss.Queue = {
          name: definition.name,
          retryLimit: definition.retry.limit,
          retryDelay: definition.retry.delaySeconds,
          retryBackoff: definition.retry.backoff,
          expireInSeconds: definition.timeoutSeconds,
          deadLetter,
        };
        // createQueue ignores an existing queue, so a changed retry policy is applied explicitly.
        await retriedOnDeadlock(() => boss.createQueue(definition.name, queue));
        await retriedOnDeadlock(() => boss.updateQueue(definition.name, queue));
      }
    });
    return new PgBossQueue(boss, options);
  }

  async send<Definition extends JobDefinition>(
    definition: Definition,
    payload: z.input<Definition['payload']>,
    options: SendOptions = {},
  ): Promise<string> {
    this.#assertKnown(definition);
    const data = definition.payload.parse(payload) as object;
    const id = await this.#boss.send(definition.name, data, {
      ...(options.startAfter ? { startAfter: options.startAfter } : {}),
      ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
    });
    if (id === null) throw new Error(`Job ${definition.name} was not queued (singleton key already queued)`);
    return id;
  }

  async work<Definition extends JobDefinition>(
    definition: Definition,
    handler: JobHandler<Definition>,
  ): Promise<void> {
    this.#assertKnown(definition);
    const { logger, concurrency, pollingIntervalSeconds = 0.5 } = this.#options;
    for (let worker = 0; worker < concurrency; worker++) {
      await this.#boss.work(
        definition.name,
        { batchSize: 1, includeMetadata: true, pollingIntervalSeconds },
        async (jobs) => {
          for (const job of jobs) {
            const log = logger.child({ job: definition.name, jobId: job.id, attempt: job.retryCount + 1 });
            const payload = definition.payload.safeParse(job.data);
            if (!payload.success) {
              // Retrying cannot fix a payload that does not match its schema.
              log.error({ issues: payload.error.issues }, 'job payload is invalid; dropped');
              return;
            }
            try {
              await handler(payload.data as z.output<Definition['payload']>, {
                jobId: job.id,
                retryCount: job.retryCount,
                isLastAttempt: job.retryCount >= job.retryLimit,
              });
              log.debug('job done');
            } catch (error) {
              log.warn({ err: error }, 'job attempt failed');
              throw error;
            }
          }
        },
      );
    }
  }

  async stop(timeoutMs: number): Promise<void> {
    // The pool belongs to the caller: pg-boss must not close it.
    await this.#boss.stop({ graceful: true, wait: true, close: false, timeout: timeoutMs });
  }

  #assertKnown(definition: JobDefinition): void {
    if (!this.#options.definitions.includes(definition)) {
      throw new Error(`Job ${definition.name} is not in the job registry`);
    }
  }
}

/**
 * Runs a statement of queue setup again when PostgreSQL chose it as a deadlock's victim (40P01):
 * its transaction was rolled back whole, and another process's maintenance (which does not take the
 * setup lock) may still hold the partition it needs for a moment.
 */
export async function retriedOnDeadlock(statement: () => Promise<unknown>, attempts = 5): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await statement();
      return;
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      if (code !== '40P01' || attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
}

/** Lock key for queue setup: any constant shared by every Verbatim process ("vbtm"). */
const QUEUE_SETUP_LOCK = 0x7662746d;

async function withSetupLock(pool: DatabasePool, setup: () => Promise<void>): Promise<void> {
  // PGlite is one session in one process; its pool would also deadlock holding a connection here.
  if (pool.kind === 'pglite') return setup();
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [QUEUE_SETUP_LOCK]);
    try {
      await setup();
    } finally {
      await client.query('select pg_advisory_unlock($1)', [QUEUE_SETUP_LOCK]);
    }
  } finally {
    client.release();
  }
}
