import { sharedModelsDir } from '@verbatim/speech/test-support';
import { afterAll, beforeAll } from 'vitest';
import { transcribeFileJob } from '../modules/files/files.jobs.js';
import type { JobDefinition } from '../platform/queue/job-definition.js';
import { startRuntime, type Runtime } from '../runtime.js';
import { startWebhookReceiver, uploadInChunks, type WebhookReceiver } from './files.js';
import { captureLogs, type CapturedLogs } from './log-capture.js';
import { bearer, createAccount, signIn } from './sign-in.js';
import { startTestRuntime, type TestRuntime } from './test-runtime.js';
import { waitFor } from './wait.js';

/**
 * Two runtimes consuming the same queue from one database, each with its own pg-boss workers,
 * speech engine (tiny.en, one recogniser) and maintenance sweep, and a webhook receiver. On
 * PostgreSQL the second opens its own connection pool, as another process would; embedded PGlite
 * has a single owner, so the second goes through the first's.
 */
export interface WorkerPair {
  /** Serves HTTP and runs workers. */
  first: TestRuntime;
  /** Runs workers only (`verbatim worker`). */
  second: Runtime;
  logs: { first: CapturedLogs['lines']; second: CapturedLogs['lines'] };
  receiver: WebhookReceiver;
  close(): Promise<void>;
}

export async function startWorkerPair(): Promise<WorkerPair> {
  const receiver = await startWebhookReceiver();
  const first = await startTestRuntime({
    workers: true,
    env: {
      SPEECH_MODELS_DIR: sharedModelsDir,
      SPEECH_MODEL_EN: 'tiny.en-q8_0',
      SPEECH_WORKERS: '1',
      SPEECH_THREADS: '1',
      WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: 'true',
    },
  });
  const captured = captureLogs();
  const embedded = first.config.database.kind === 'pglite';
  const second = await startRuntime(first.config, captured.logger, {
    http: false,
    workers: true,
    // The first runtime closes the embedded database it owns.
    ...(embedded ? { database: { ...first.database, close: () => Promise.resolve() } } : {}),
  }).catch(async (error: unknown) => {
    await first.close();
    await receiver.close();
    throw error;
  });
  return {
    first,
    second,
    logs: { first: first.logs, second: captured.lines },
    receiver,
    close: async () => {
      await second.stop();
      await first.close();
      await receiver.close();
    },
  };
}

/** A worker pair for the enclosing describe block: started before its tests, closed after. */
export function useWorkerPair(): () => WorkerPair {
  let pair: WorkerPair | undefined;
  beforeAll(async () => {
    pair = await startWorkerPair();
  }, 120_000);
  afterAll(() => pair?.close());
  return () => {
    if (!pair) throw new Error('the worker pair did not start');
    return pair;
  };
}

/** For each file, which runtime(s) logged `message` about it (once each time it did). */
export function loggedBy(pair: WorkerPair, message: string): Map<string, ('first' | 'second')[]> {
  const seen = new Map<string, ('first' | 'second')[]>();
  for (const side of ['first', 'second'] as const) {
    for (const line of pair.logs[side]) {
      if (line.msg !== message || typeof line.fileId !== 'string') continue;
      seen.set(line.fileId, [...(seen.get(line.fileId) ?? []), side]);
    }
  }
  return seen;
}

/**
 * A new account uploads the recordings all at once (resumable route, the receiver as webhook URL),
 * so that the queue holds a backlog the consumers compete for. Answers the account and file ids.
 */
export async function uploadAll(
  pair: WorkerPair,
  recordings: { fileName: string; type: string; data: Buffer }[],
): Promise<{ accountId: string; ids: string[] }> {
  const account = await createAccount(pair.first);
  const headers = bearer(await signIn(pair.first, account.email));
  const ids = await Promise.all(
    recordings.map(async ({ fileName, type, data }) => {
      const state = await uploadInChunks(pair.first.app, headers, data, {
        fileName,
        type,
        languageCode: 'en',
        callbackUrl: pair.receiver.url,
      });
      return state.fileId;
    }),
  );
  return { accountId: account.id, ids };
}

/** The files' rows, once every job of theirs has run. */
export async function settledFiles(pair: WorkerPair, ids: string[]) {
  await queueDrained(pair, transcribeFileJob);
  return pair.first.database.db.selectFrom('submitted_files').selectAll().where('id', 'in', ids).execute();
}

/** Waits until no job of this kind is waiting, due for a retry or running (pg-boss's own table). */
export async function queueDrained(pair: WorkerPair, definition: JobDefinition, timeoutMs = 60_000) {
  await waitFor(
    async () => {
      const open = await pair.first.database.pool.query<{ count: string }>(
        `select count(*) from pgboss.job where name = $1 and state in ('created', 'retry', 'active')`,
        [definition.name],
      );
      return Number(open.rows[0]?.count) === 0;
    },
    `the ${definition.name} jobs`,
    timeoutMs,
  );
}
