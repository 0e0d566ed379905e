import { mkdir } from 'node:fs/promises';
import { Kysely, PostgresDialect, type PostgresPool as KyselyPool } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from '../../config/config.js';
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
  close(): Promise<void>;
}

export async function openDatabase(config: Config['database'], logger: Logger): Promise<Database> {
  let pool: DatabasePool;
  if (config.kind === 'pglite') {
    if (config.directory) await mkdir(config.directory, { recursive: true });
    pool = await PGlitePool.open(config.directory ?? undefined);
  } else {
    pool = new PostgresPool(config.url, config.poolSize, (error) =>
      logger.error({ err: error }, 'idle PostgreSQL connection failed'),
    );
  }
  return fromPool(pool);
}

function fromPool(pool: DatabasePool): Database {
  // Kysely types `command` as the five DML verbs it reads; ours is the wider string pg reports.
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool: pool as unknown as KyselyPool }) });
  return {
    db,
    pool,
    // Kysely's destroy ends the pool it was given.
    close: () => db.destroy(),
  };
}
