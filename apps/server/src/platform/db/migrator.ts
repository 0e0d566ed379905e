import { Migrator, sql, type Kysely } from 'kysely';
import { migrations } from './migrations/index.js';

export interface MigrationReport {
  applied: string[];
}

// Kysely's migrator does not depend on the table types.
function migratorFor(db: Kysely<unknown>): Migrator {
  return new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
  });
}

/** Applies every pending migration in order, under the migrator's lock; throws on the first failure. */
export async function migrateToLatest(db: Kysely<unknown>): Promise<MigrationReport> {
  const { error, results } = await migratorFor(db).migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName;
    throw new Error(`Migration ${failed ?? '(unknown)'} failed`, { cause: error });
  }
  return { applied: (results ?? []).map((result) => result.migrationName) };
}

/**
 * Migrations this build knows of that the database has not applied. One cheap query: readiness
 * probes call it constantly, and the migrator's own listing checks and creates its tables first.
 */
export async function pendingMigrations(db: Kysely<unknown>): Promise<string[]> {
  let applied: Set<string>;
  try {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
    applied = new Set(rows.map((row) => row.name));
  } catch (error) {
    // 42P01: the bookkeeping table does not exist yet, so nothing has been applied.
    if ((error as { code?: unknown }).code !== '42P01') throw error;
    applied = new Set();
  }
  return Object.keys(migrations).filter((name) => !applied.has(name));
}
