import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestDatabase, type TestDatabase } from '../../test-support/test-database.js';
import { waitFor } from '../../test-support/wait.js';
import { openDatabase, type Database } from '../db/database.js';
import { deadLetterQueueOf, defineJob, type JobContext } from './job-definition.js';
import { PgBossQueue, retriedOnDeadlock } from './pg-boss-queue.js';

const flakyJob = defineJob({
  name: 'test-flaky',
  payload: z.object({ word: z.string().min(1) }),
  retry: { limit: 3, delaySeconds: 1, backoff: false },
  timeoutSeconds: 30,
});
const doomedJob = defineJob({
  name: 'test-doomed',
  payload: z.object({ n: z.number() }),
  retry: { limit: 1, delaySeconds: 1, backoff: false },
  timeoutSeconds: 30,
});
const countedJob = defineJob({
  name: 'test-counted',
  payload: z.object({ n: z.number().int() }),
  retry: { limit: 0, delaySeconds: 1, backoff: false },
  timeoutSeconds: 30,
});
const unregisteredJob = defineJob({
  name: 'test-unregistered',
  payload: z.object({}),
  retry: { limit: 0, delaySeconds: 1, backoff: false },
  timeoutSeconds: 30,
});

const silent = pino({ level: 'silent' });

const until = (condition: () => boolean | Promise<boolean>, timeoutMs?: number) =>
  waitFor(condition, 'the jobs', timeoutMs);

describe('PgBossQueue', () => {
  let testDatabase: TestDatabase;
  let database: Database;
  let queue: PgBossQueue;

  beforeAll(async () => {
    testDatabase = await createTestDatabase();
    database = await openDatabase(testDatabase.config, silent);
    queue = await PgBossQueue.start({
      pool: database.pool,
      logger: silent,
      definitions: [flakyJob, doomedJob, countedJob],
      concurrency: 2,
      pollingIntervalSeconds: 0.5,
    });
  });
  afterAll(async () => {
    await queue.stop(5000);
    await database.close();
    await testDatabase.drop();
  });

  it('refuses a payload that does not match the job schema, before storing anything', async () => {
    await expect(queue.send(flakyJob, { word: '' })).rejects.toThrow(z.ZodError);
  });

  it('refuses jobs that are not in the registry', async () => {
    await expect(queue.send(unregisteredJob, {})).rejects.toThrow(/not in the job registry/);
  });

  it('retries a failing job until it succeeds, telling the handler which attempt it is', async () => {
    const attempts: JobContext[] = [];
    await queue.work(flakyJob, (payload, context) => {
      expect(payload.word).toBe('hello');
      attempts.push(context);
      if (attempts.length < 3) return Promise.reject(new Error(`transient failure ${attempts.length}`));
      return Promise.resolve();
    });
    await queue.send(flakyJob, { word: 'hello' });
    await until(() => attempts.length === 3);
    expect(attempts.map((attempt) => [attempt.retryCount, attempt.isLastAttempt])).toEqual([
      [0, false],
      [1, false],
      [2, false],
    ]);
  });

  it('moves a job that uses up its retries to the dead-letter queue', async () => {
    let calls = 0;
    await queue.work(doomedJob, () => {
      calls++;
      return Promise.reject(new Error('permanent failure'));
    });
    await queue.send(doomedJob, { n: 7 });
    const deadLetters = async () =>
      (
        await database.pool.query<{ data: { n: number } }>('select data from pgboss.job where name = $1', [
          deadLetterQueueOf(doomedJob),
        ])
      ).rows;
    await until(async () => (await deadLetters()).length === 1);
    expect(calls).toBe(2);
    expect((await deadLetters())[0]?.data).toEqual({ n: 7 });
  });
});

// Several worker processes share one queue only on a real PostgreSQL (SKIP LOCKED across sessions).
describe.runIf(Boolean(process.env.DATABASE_URL))('PgBossQueue with several consumers on PostgreSQL', () => {
  it('runs every job exactly once across independent consumers', async () => {
    const testDatabase = await createTestDatabase();
    const databases = [
      await openDatabase(testDatabase.config, silent),
      await openDatabase(testDatabase.config, silent),
    ];
    const queues = await Promise.all(
      databases.map((database) =>
        PgBossQueue.start({
          pool: database.pool,
          logger: silent,
          definitions: [countedJob],
          concurrency: 3,
          pollingIntervalSeconds: 0.5,
        }),
      ),
    );
    try {
      const seen: number[] = [];
      const byConsumer = [0, 0];
      for (const [index, queue] of queues.entries()) {
        await queue.work(countedJob, async (payload) => {
          seen.push(payload.n);
          byConsumer[index]! += 1;
          await new Promise((resolve) => setTimeout(resolve, 20));
        });
      }
      const total = 60;
      for (let n = 0; n < total; n++) await queues[n % 2]!.send(countedJob, { n });
      await until(() => seen.length >= total, 30_000);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: total }, (_, n) => n));
      expect(byConsumer[0]! + byConsumer[1]!).toBe(total);
    } finally {
      for (const queue of queues) await queue.stop(5000);
      for (const database of databases) await database.close();
      await testDatabase.drop();
    }
  });
});

describe('queue setup when PostgreSQL picks it as a deadlock victim', () => {
  const failing = (codes: (string | undefined)[]) => {
    let calls = 0;
    const statement = () => {
      const code = codes[calls++];
      return code === undefined && calls > codes.length
        ? Promise.resolve()
        : Promise.reject(Object.assign(new Error(`failed with ${code}`), { code }));
    };
    return { statement, calls: () => calls };
  };

  it('runs the statement again after a deadlock (40P01), and only then', async () => {
    const twice = failing(['40P01', '40P01']);
    await retriedOnDeadlock(twice.statement);
    expect(twice.calls()).toBe(3);

    const other = failing(['23505']);
    await expect(retriedOnDeadlock(other.statement)).rejects.toMatchObject({ code: '23505' });
    expect(other.calls()).toBe(1);
  });

  it('gives up after its attempts with the deadlock error', async () => {
    const always = failing(['40P01', '40P01', '40P01']);
    await expect(retriedOnDeadlock(always.statement, 3)).rejects.toMatchObject({ code: '40P01' });
    expect(always.calls()).toBe(3);
  });
});
