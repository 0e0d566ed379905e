import type { Kysely } from 'kysely';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test-support/test-database.js';
import { openDatabase, type Database } from './database.js';
import { migrateToLatest, pendingMigrations } from './migrator.js';
import { migrations } from './migrations/index.js';

describe('migrator', () => {
  let testDatabase: TestDatabase;
  let database: Database;
  beforeAll(async () => {
    testDatabase = await createTestDatabase();
    database = await openDatabase(testDatabase.config, pino({ level: 'silent' }));
  });
  afterAll(async () => {
    await database.close();
    await testDatabase.drop();
  });

  it('applies every migration to a fresh database, then has nothing left to do', async () => {
    const db = database.db as Kysely<unknown>;
    expect(await pendingMigrations(db)).toEqual(Object.keys(migrations));
    expect((await migrateToLatest(db)).applied).toEqual(Object.keys(migrations));
    expect(await pendingMigrations(db)).toEqual([]);
    expect((await migrateToLatest(db)).applied).toEqual([]);
  });

  it('is safe when several processes migrate at once', async () => {
    const db = database.db as Kysely<unknown>;
    const results = await Promise.all([migrateToLatest(db), migrateToLatest(db)]);
    expect(results.flatMap((result) => result.applied)).toEqual([]);
  });
});
