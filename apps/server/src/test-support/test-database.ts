import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Config } from '../config/config.js';

export interface TestDatabase {
  config: Config['database'];
  drop(): Promise<void>;
}

/**
 * A database of its own for one test file: in-memory PGlite by default, or, when DATABASE_URL
 * names a PostgreSQL server (the CI's second pass), a fresh database created on it and dropped after.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) return { config: { kind: 'pglite', directory: null }, drop: () => Promise.resolve() };

  const name = `verbatim_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    config: { kind: 'postgres', url: url.toString(), poolSize: 5 },
    drop: async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}
