import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { loadConfig, type Config } from '../config/config.js';
import type { MailTransport } from '../platform/mail/mail-transport.js';
import { startRuntime, type Runtime, type RuntimeOptions } from '../runtime.js';
import { captureLogs, type CapturedLogs } from './log-capture.js';
import { createTestDatabase } from './test-database.js';

export interface TestRuntime extends Runtime {
  app: FastifyInstance;
  logs: CapturedLogs['lines'];
  dataDir: string;
  /** Stops the runtime, drops its database and removes its data folder. */
  close(): Promise<void>;
}

export interface TestRuntimeOptions {
  env?: Record<string, string>;
  workers?: boolean;
  mailTransport?: MailTransport;
  /** Changes to the loaded configuration that environment variables cannot express. */
  adjust?: (config: Config) => void;
  logger?: Logger;
  /** Where CRM deliveries read transcripts. */
  crmTranscripts?: RuntimeOptions['crmTranscripts'];
}

/** The real application — real database, queue and HTTP stack — for one test file. */
export async function startTestRuntime(options: TestRuntimeOptions = {}): Promise<TestRuntime> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'verbatim-test-'));
  const database = await createTestDatabase();
  const config = loadConfig(
    {
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      CONSOLE_DIR: path.join(dataDir, 'no-console'),
      // Tests never reach the network; those that transcribe point SPEECH_MODELS_DIR at ../shared/models.
      SPEECH_MODEL_AUTO_DOWNLOAD: 'false',
      ...options.env,
    },
    '0.0.0-test',
  );
  config.database = database.config;
  options.adjust?.(config);
  const captured = captureLogs();
  const runtime = await startRuntime(config, options.logger ?? captured.logger, {
    http: true,
    workers: options.workers ?? false,
    ...(options.mailTransport ? { mailTransport: options.mailTransport } : {}),
    ...(options.crmTranscripts ? { crmTranscripts: options.crmTranscripts } : {}),
  });
  const app = runtime.app;
  if (!app) throw new Error('test runtime has no HTTP app');
  return {
    ...runtime,
    app,
    logs: captured.lines,
    dataDir,
    close: async () => {
      await runtime.stop();
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
