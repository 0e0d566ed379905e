#!/usr/bin/env node
// First: refuses an unsupported Node.js before any dependency loads.
import './supported-runtime.js';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { ConfigError, loadConfig, type Config } from './config/config.js';
import { AppError } from './errors/app-error.js';
import { createLogger } from './logger.js';
import { AccountsUsageError, accountsUsage, runAccountsCommand } from './modules/accounts/accounts.cli.js';
import { LicencesUsageError, licencesUsage, runLicencesCommand } from './modules/licences/licences.cli.js';
import {
  ModelsCommandError,
  ModelsUsageError,
  modelsUsage,
  runModelsCommand,
} from './modules/speech-models/models.cli.js';
import {
  TranscribeUsageError,
  runTranscribeCommand,
  transcribeLogger,
  transcribeUsage,
} from './modules/transcripts/transcribe.cli.js';
import { withCommandDatabase } from './platform/db/command-database.js';
import { openDatabase } from './platform/db/database.js';
import { DatabaseInUseError } from './platform/db-owner/embedded-database.js';
import { migrateToLatest } from './platform/db/migrator.js';
import type { Runtime, startRuntime as StartRuntime } from './runtime.js';
import { version } from './version.js';

const usage = `Usage: verbatim <command>

Commands:
  serve                     API, console and (unless WORKERS_IN_PROCESS=false) the workers
  worker                    background workers only (run any number against PostgreSQL)
  migrate                   apply pending database migrations and exit
  send-test-email <address> queue one e-mail through the job queue, to check the mail settings
${accountsUsage}
${licencesUsage}
${modelsUsage}
${transcribeUsage}
  help                      this text

Configuration comes from environment variables; see the README.`;

/**
 * The whole product (HTTP app, workers, speech engine, payment and CRM clients) takes about two
 * seconds to import; only the commands that run it load it, so `accounts`, `licences`, `models`
 * and `transcribe` start at once.
 */
async function startRuntime(...args: Parameters<typeof StartRuntime>): Promise<Runtime> {
  const { startRuntime: start } = await import('./runtime.js');
  return start(...args);
}

/** Stops the runtime on SIGTERM or SIGINT; a second signal, or the timeout, forces the exit. */
function stopOnSignals(runtime: Runtime, logger: Logger, timeoutMs: number): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'shutting down');
    setTimeout(() => {
      logger.error('shutdown took too long: exiting');
      process.exit(1);
    }, timeoutMs + 2000).unref();
    runtime.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

async function serve(config: Config, logger: Logger): Promise<void> {
  if (config.database.kind === 'pglite' && !config.workers.inProcess)
    logger.warn('WORKERS_IN_PROCESS=false on the embedded database: no other process may run the jobs');
  const runtime = await startRuntime(config, logger, { http: true, workers: config.workers.inProcess });
  stopOnSignals(runtime, logger, config.http.shutdownTimeoutMs);
  const app = runtime.app;
  if (!app) throw new Error('the HTTP app was not built');
  const address = await app.listen({ host: config.http.host, port: config.http.port });
  logger.info(
    { address, database: config.database.kind, workers: config.workers.inProcess },
    `${config.console.productName} is serving on ${config.http.publicUrl}`,
  );
}

async function worker(config: Config, logger: Logger): Promise<void> {
  const runtime = await startRuntime(config, logger, { http: false, workers: true });
  stopOnSignals(runtime, logger, config.http.shutdownTimeoutMs);
  logger.info({ database: config.database.kind }, 'worker started');
}

async function migrate(config: Config, logger: Logger): Promise<void> {
  const database = await openDatabase(config.database, logger, { access: 'shared' });
  try {
    const { applied } = await migrateToLatest(database.db as Kysely<unknown>);
    logger.info({ applied }, applied.length ? 'migrations applied' : 'database already up to date');
  } finally {
    await database.close();
  }
}

async function sendTestEmail(config: Config, logger: Logger, address: string | undefined): Promise<void> {
  if (!address || !/^[^\s@]+@[^\s@]+$/.test(address))
    throw new UsageError('send-test-email needs an e-mail address');
  // Delivered by this process's own worker, so the command also proves the transport works; on the
  // embedded database held by a running server, by that server's workers (one process runs jobs there).
  const database = await openDatabase(config.database, logger, { access: 'shared' });
  const owner = database.throughOwner;
  if (owner) logger.info({ pid: owner.pid }, 'the running server delivers the message');
  const runtime = await startRuntime(config, logger, { http: false, workers: owner === null, database });
  try {
    const id = await runtime.services.mail.enqueue({
      purpose: 'test',
      to: address,
      subject: `${config.console.productName} test message`,
      text: `This message confirms that ${config.console.productName} can send e-mail.`,
    });
    const deadline = Date.now() + 60_000;
    for (;;) {
      const row = await runtime.database.db
        .selectFrom('email_messages')
        .select(['status', 'last_error'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      if (row.status === 'sent') return logger.info({ id, to: address }, 'test e-mail sent');
      if (row.status === 'failed' || Date.now() > deadline)
        throw new Error(
          `test e-mail not sent: ${row.last_error ?? (owner ? `timed out (are the workers of process ${owner.pid} running?)` : 'timed out')}`,
        );
      if (row.last_error) logger.warn({ error: row.last_error }, 'attempt failed; retrying');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } finally {
    await runtime.stop();
  }
}

async function accounts(config: Config, logger: Logger, args: string[]): Promise<void> {
  try {
    await withCommandDatabase(config.database, logger, ({ db }) =>
      runAccountsCommand(db, args, (text) => console.log(text)),
    );
  } catch (error) {
    throw error instanceof AccountsUsageError ? new UsageError(error.message) : error;
  }
}

async function licences(config: Config, logger: Logger, args: string[]): Promise<void> {
  try {
    await withCommandDatabase(config.database, logger, ({ db }) =>
      runLicencesCommand(db, config, logger, args, (text) => console.log(text)),
    );
  } catch (error) {
    throw error instanceof LicencesUsageError ? new UsageError(error.message) : error;
  }
}

/** Needs no database: the models folder and the model repository are all it touches. */
async function models(config: Config, args: string[]): Promise<void> {
  // Ctrl-C stops a download cleanly, keeping the partial file for the next run to resume.
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  try {
    await runModelsCommand(config.speech, args, {
      print: (text) => console.log(text),
      progress: process.stderr,
      signal: controller.signal,
    });
  } catch (error) {
    if (error instanceof ModelsUsageError) throw new UsageError(error.message);
    if (error instanceof ModelsCommandError) {
      console.error(`verbatim: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
}

/** Needs no database either: no account, no credit; the operator's own machine and models. */
async function transcribe(config: Config, args: string[]): Promise<void> {
  // Ctrl-C cancels the file being decoded and closes the engine; a second one kills the process.
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  try {
    process.exitCode = await runTranscribeCommand(config.speech, args, {
      stdout: process.stdout,
      stderr: process.stderr,
      signal: controller.signal,
      logger: transcribeLogger(config.logLevel),
    });
  } catch (error) {
    throw error instanceof TranscribeUsageError ? new UsageError(error.message) : error;
  }
}

class UsageError extends Error {}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help') {
    console.log(usage);
    return;
  }
  const config = loadConfig(process.env, version);
  const logger = createLogger(config.logLevel);
  switch (command) {
    case 'serve':
      return serve(config, logger);
    case 'worker':
      return worker(config, logger);
    case 'migrate':
      return migrate(config, logger);
    case 'send-test-email':
      return sendTestEmail(config, logger, rest[0]);
    case 'accounts':
      return accounts(config, logger, rest);
    case 'licenses':
      return licences(config, logger, rest);
    case 'models':
      return models(config, rest);
    case 'transcribe':
      return transcribe(config, rest);
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(78);
  }
  if (error instanceof UsageError) {
    console.error(`verbatim: ${error.message}\n\n${usage}`);
    process.exit(64);
  }
  // Expected refusals (unknown account, nothing to change, database in use) need no stack trace.
  if (error instanceof AppError || error instanceof DatabaseInUseError) {
    console.error(`verbatim: ${error.message}`);
    process.exit(1);
  }
  console.error(error);
  process.exit(1);
});
