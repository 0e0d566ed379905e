import { Migrator, type Kysely, type MigrationInfo } from 'kysely';
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

export async function pendingMigrations(db: Kysely<unknown>): Promise<string[]> {
  const all: readonly MigrationInfo[] = await migratorFor(db).getMigrations();
  return all.filter((migration) => migration.executedAt === undefined).map((migration) => migration.name);
}
