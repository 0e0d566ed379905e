import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from './config/config.js';
import { buildApp } from './http/app.js';
import { jobDefinitions, startWorkers } from './jobs/registry.js';
import { MailRepository } from './modules/mail/mail.repository.js';
import { MailService } from './modules/mail/mail.service.js';
import { SystemService } from './modules/system/system.service.js';
import { openDatabase, type Database } from './platform/db/database.js';
import { migrateToLatest } from './platform/db/migrator.js';
import type { MailTransport } from './platform/mail/mail-transport.js';
import { createMailTransport } from './platform/mail/nodemailer-transport.js';
import type { JobQueue } from './platform/queue/job-queue.js';
import { PgBossQueue } from './platform/queue/pg-boss-queue.js';

export interface Services {
  system: SystemService;
  mail: MailService;
}

export interface Runtime {
  config: Config;
  logger: Logger;
  database: Database;
  queue: JobQueue;
  services: Services;
  /** Present when the runtime serves HTTP. */
  app?: FastifyInstance;
  /** Stops accepting requests, lets in-flight requests and jobs finish, then closes the queue and database. */
  stop(): Promise<void>;
}

export interface RuntimeOptions {
  /** Build the HTTP app (serve); without it the runtime only runs jobs (worker). */
  http: boolean;
  /** Consume jobs in this process. */
  workers: boolean;
  /** Replaces the configured mail transport (tests deliver to a local SMTP sink this way too). */
  mailTransport?: MailTransport;
}

/** The composition root: the one place where adapters, services, workers and HTTP are wired. */
export async function startRuntime(
  config: Config,
  logger: Logger,
  options: RuntimeOptions,
): Promise<Runtime> {
  const database = await openDatabase(config.database, logger);
  const closers: (() => Promise<void>)[] = [() => database.close()];
  const stop = async () => {
    for (const close of closers.splice(0).reverse()) {
      await close().catch((error: unknown) => logger.error({ err: error }, 'error while shutting down'));
    }
  };
  try {
    const { applied } = await migrateToLatest(database.db as Kysely<unknown>);
    if (applied.length > 0) logger.info({ applied }, 'database migrated');

    const transport = options.mailTransport ?? createMailTransport(config.mail, logger);
    closers.push(() => Promise.resolve(transport.close()));
    const queue = await PgBossQueue.start({
      pool: database.pool,
      logger,
      definitions: jobDefinitions,
      concurrency: config.workers.concurrency,
    });
    closers.push(() => queue.stop(config.http.shutdownTimeoutMs));

    const services: Services = {
      system: new SystemService(config, database),
      mail: new MailService(new MailRepository(database.db), queue, transport, config.mail.from, logger),
    };
    if (options.workers) {
      await startWorkers(queue, services);
      logger.info({ mail: transport.description }, 'workers started');
    }
    const runtime: Runtime = { config, logger, database, queue, services, stop };
    if (options.http) {
      const app = await buildApp(config, logger, services);
      closers.push(() => app.close());
      runtime.app = app;
    }
    return runtime;
  } catch (error) {
    await stop();
    throw error;
  }
}
