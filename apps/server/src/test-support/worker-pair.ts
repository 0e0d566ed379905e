import type { FastifyInstance } from 'fastify';
import { startRuntime, type Runtime } from '../runtime.js';
import { uploadInChunks } from './files.js';
import { captureLogs, type CapturedLogs } from './log-capture.js';
import { startTestRuntime, type TestRuntime } from './test-runtime.js';

/**
 * Two runtimes consuming the same queue from one database, each with its own pg-boss workers,
 * speech engine and maintenance sweep. On PostgreSQL the second opens its own connection pool, as
 * another process would; embedded PGlite has a single owner, so the second goes through the first's.
 */
export interface WorkerPair {
  /** Serves HTTP and runs workers. */
  first: TestRuntime;
  /** Runs workers only (`verbatim worker`). */
  second: Runtime;
  logs: { first: CapturedLogs['lines']; second: CapturedLogs['lines'] };
  close(): Promise<void>;
}

export async function startWorkerPair(env: Record<string, string>): Promise<WorkerPair> {
  const first = await startTestRuntime({ workers: true, env });
  const captured = captureLogs();
  const embedded = first.config.database.kind === 'pglite';
  const second = await startRuntime(first.config, captured.logger, {
    http: false,
    workers: true,
    // The first runtime closes the embedded database it owns.
    ...(embedded ? { database: { ...first.database, close: () => Promise.resolve() } } : {}),
  }).catch(async (error: unknown) => {
    await first.close();
    throw error;
  });
  return {
    first,
    second,
    logs: { first: first.logs, second: captured.lines },
    close: async () => {
      await second.stop();
      await first.close();
    },
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

/** Uploads each recording (resumable route) with a webhook URL; answers the file ids in order. */
export async function uploadAll(
  app: FastifyInstance,
  headers: Record<string, string>,
  recordings: { fileName: string; type: string; data: Buffer }[],
  callbackUrl: string,
): Promise<string[]> {
  const ids: string[] = [];
  for (const { fileName, type, data } of recordings) {
    const state = await uploadInChunks(app, headers, data, {
      fileName,
      type,
      languageCode: 'en',
      callbackUrl,
    });
    ids.push(state.fileId);
  }
  return ids;
}
