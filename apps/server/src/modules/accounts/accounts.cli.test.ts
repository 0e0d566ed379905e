import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../config/config.js';
import { newId } from '../../lib/ids.js';
import { openDatabase, type Database } from '../../platform/db/database.js';
import { migrateToLatest } from '../../platform/db/migrator.js';
import { runCli } from '../../test-support/cli.js';
import { createTestDatabase, type TestDatabase } from '../../test-support/test-database.js';
import { AccountsRepository } from './accounts.repository.js';

// Up to five CLI processes per test, each starting TypeScript and PGlite: slow on a busy machine.
describe('verbatim accounts', { timeout: 180_000 }, () => {
  let dataDir: string;
  let testDatabase: TestDatabase;
  let databaseConfig: Config['database'];
  let env: Record<string, string>;

  /**
   * On PGlite the test holds the folder only around its own checks, so that the CLI opens it itself:
   * the path with no server running (one-owner.test.ts covers the CLI beside a running server).
   */
  async function withDatabase<T>(work: (database: Database) => Promise<T>): Promise<T> {
    const database = await openDatabase(databaseConfig, pino({ level: 'silent' }));
    try {
      return await work(database);
    } finally {
      await database.close();
    }
  }

  const statusOf = (email: string) =>
    withDatabase(async ({ db }) => (await new AccountsRepository(db).findByEmail(email))?.status);

  const auditOf = (email: string) =>
    withDatabase(({ db }) =>
      db
        .selectFrom('audit_events')
        .innerJoin('accounts', 'accounts.id', 'audit_events.account_id')
        .select(['kind', 'detail'])
        .where('accounts.email', '=', email)
        .orderBy('audit_events.created_at')
        .execute(),
    );

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'verbatim-accounts-cli-'));
    testDatabase = await createTestDatabase();
    databaseConfig =
      testDatabase.config.kind === 'pglite'
        ? { kind: 'pglite', directory: path.join(dataDir, 'pglite') }
        : testDatabase.config;
    env =
      testDatabase.config.kind === 'postgres'
        ? { DATABASE_URL: testDatabase.config.url }
        : { DATA_DIR: dataDir };
    await withDatabase(async (database) => {
      await migrateToLatest(database.db as Kysely<unknown>);
      const accounts = new AccountsRepository(database.db);
      const seed = [
        ['waiting@example.com', 'pending_approval', new Date()],
        ['fresh@example.com', 'pending_verification', null],
        ['active@example.com', 'active', new Date()],
      ] as const;
      for (const [email, status, emailVerifiedAt] of seed) {
        await accounts.insert({
          id: newId('acc'),
          email,
          passwordHash: null,
          status,
          emailVerifiedAt,
          startingCreditCents: 0,
        });
      }
    });
  });
  afterAll(async () => {
    await testDatabase.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('lists accounts, optionally by status', async () => {
    const all = await runCli(['accounts', 'list'], env);
    expect(all.code, all.stderr).toBe(0);
    const lines = all.stdout.trim().split('\n');
    expect(lines[0]).toBe('email\tstatus\tcreated\temail verified');
    expect(lines.slice(1).map((line) => line.split('\t').slice(0, 2))).toEqual([
      ['waiting@example.com', 'pending_approval'],
      ['fresh@example.com', 'pending_verification'],
      ['active@example.com', 'active'],
    ]);

    const waiting = await runCli(['accounts', 'list', '--status', 'pending_approval'], env);
    expect(waiting.code, waiting.stderr).toBe(0);
    expect(waiting.stdout.trim().split('\n').slice(1)).toEqual([
      expect.stringMatching(/^waiting@example\.com\t/),
    ]);

    const bad = await runCli(['accounts', 'list', '--status', 'asleep'], env);
    expect(bad.code).toBe(64);
    expect(bad.stderr).toContain('unknown status "asleep"');
  });

  it('approves an account waiting for approval', async () => {
    const result = await runCli(['accounts', 'approve', 'Waiting@Example.com'], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('waiting@example.com is now active');
    expect(await statusOf('waiting@example.com')).toBe('active');
    expect(await auditOf('waiting@example.com')).toEqual([
      { kind: 'account.approved', detail: { from: 'pending_approval', to: 'active' } },
    ]);
  });

  it('refuses to approve an active account or one that has not verified its e-mail', async () => {
    const active = await runCli(['accounts', 'approve', 'active@example.com'], env);
    expect(active.code).toBe(1);
    expect(active.stderr).toContain('verbatim: active@example.com is already active\n');
    const fresh = await runCli(['accounts', 'approve', 'fresh@example.com'], env);
    expect(fresh.code).toBe(1);
    expect(fresh.stderr).toContain('has not verified its e-mail address yet');
    expect(await statusOf('fresh@example.com')).toBe('pending_verification');
  });

  it('deactivates an account, and approving it again reactivates it', async () => {
    const result = await runCli(['accounts', 'deactivate', 'active@example.com'], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('active@example.com is now inactive');
    expect(await statusOf('active@example.com')).toBe('inactive');
    const twice = await runCli(['accounts', 'deactivate', 'active@example.com'], env);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain('already inactive');

    expect((await runCli(['accounts', 'approve', 'active@example.com'], env)).code).toBe(0);
    expect(await statusOf('active@example.com')).toBe('active');
    expect((await auditOf('active@example.com')).map((event) => event.kind)).toEqual([
      'account.deactivated',
      'account.approved',
    ]);
  });

  it('says clearly when no account has the address, or the command is incomplete', async () => {
    const unknown = await runCli(['accounts', 'approve', 'ghost@example.com'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('verbatim: no account has the e-mail address ghost@example.com');
    const missing = await runCli(['accounts', 'deactivate'], env);
    expect(missing.code).toBe(64);
    expect(missing.stderr).toContain('usage: accounts deactivate <email>');
    const other = await runCli(['accounts', 'promote', 'x@example.com'], env);
    expect(other.code).toBe(64);
    expect(other.stderr).toContain('unknown accounts command "promote"');
  });
});
