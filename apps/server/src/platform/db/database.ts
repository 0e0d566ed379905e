import { mkdir } from 'node:fs/promises';
import { Kysely, PostgresDialect, type PostgresPool as KyselyPool } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from '../../config/config.js';
import type { FolderOwner } from '../db-owner/data-folder-lock.js';
import { openEmbeddedDatabase, type FolderAccess } from '../db-owner/embedded-database.js';
import { PGlitePool } from './pglite-pool.js';
import type { DatabasePool } from './pool.js';
import { PostgresPool } from './postgres-pool.js';
import type { Tables } from './tables.js';

export type Db = Kysely<Tables>;

export interface Database {
  /** Typed queries for repositories. */
  readonly db: Db;
  /** Raw access for infrastructure that brings its own SQL (the job queue, health checks). */
  readonly pool: DatabasePool;
  /** The process whose embedded database this is reached through; null when this process opened it. */
  readonly throughOwner: FolderOwner | null;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /**
   * For an embedded PGlite folder: `exclusive` (the default; serve, worker) holds the folder or is
   * refused with DatabaseInUseError; `shared` (operator commands) goes through the process holding
   * it, if any. PostgreSQL and in-memory PGlite ignore it.
   */
  access?: FolderAccess;
}

export async function openDatabase(
  config: Config['database'],
  logger: Logger,
  options: OpenDatabaseOptions = {},
): Promise<Database> {
  if (config.kind === 'postgres') {
    const pool = new PostgresPool(config.url, config.poolSize, (error) =>
      logger.error({ err: error }, 'idle PostgreSQL connection failed'),
    );
    return fromPool(pool, null);
  }
  if (!config.directory) return fromPool(await PGlitePool.open(undefined), null);
  await mkdir(config.directory, { recursive: true });
  const embedded = await openEmbeddedDatabase(config.directory, {
    access: options.access ?? 'exclusive',
    logger,
  });
  return fromPool(embedded.pool, embedded.via === 'owner' ? embedded.owner : null);
}

function fromPool(pool: DatabasePool, throughOwner: FolderOwner | null): Database {
  // Kysely types `command` as the five DML verbs it reads; ours is the wider string pg reports.
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool: pool as unknown as KyselyPool }) });
  return {
    db,
    pool,
    throughOwner,
    // Kysely's destroy ends the pool it was given.
    close: () => db.destroy(),
  };
}
