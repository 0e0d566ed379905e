import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from '../../config/config.js';
import { openDatabase, type Database } from './database.js';
import { migrateToLatest } from './migrator.js';

/**
 * The database for an operator command (`verbatim accounts …` and every later one): on the
 * embedded PGlite folder, through the running server (or worker) that holds it — so the change is
 * seen at once and nothing is lost — or, with none running, opened here under the same lock; on
 * PostgreSQL, one more client. Migrated first, so that a command on a fresh folder works too.
 */
export async function withCommandDatabase<T>(
  config: Config['database'],
  logger: Logger,
  work: (database: Database) => Promise<T>,
): Promise<T> {
  const database = await openDatabase(config, logger, { access: 'shared' });
  try {
    await migrateToLatest(database.db as Kysely<unknown>);
    return await work(database);
  } finally {
    await database.close();
  }
}
