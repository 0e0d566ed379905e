import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Licence, TokenResponse, UsageReportResult } from '@verbatim/contracts';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/config.js';
import { newId } from '../../lib/ids.js';
import { Argon2PasswordHasher } from '../../platform/crypto/password-hasher.js';
import { withCommandDatabase } from '../../platform/db/command-database.js';
import { runCli } from '../../test-support/cli.js';
import { serverEnv, startServerProcess, type ServerProcess } from '../../test-support/server-process.js';
import { createTestDatabase, type TestDatabase } from '../../test-support/test-database.js';
import { AccountsRepository } from '../accounts/accounts.repository.js';
import { parsePublicKey, verifyLicenceKey } from './licence-keys.js';
import { UsageJournal } from './usage-journal.js';

const password = 'Correct-Horse-9';
const inAYear = new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);

// A real `verbatim serve` and the CLI beside it (through the server on PGlite, one more client on PostgreSQL).
describe('verbatim licenses, while the server runs', { timeout: 600_000 }, () => {
  let dataDir: string;
  let testDatabase: TestDatabase;
  let env: Record<string, string>;
  let server: ServerProcess;

  async function accessToken(email: string): Promise<string> {
    const token = await fetch(`${server.baseUrl}/api/v1/auth/profile/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_id: 'verbatim-console',
        grant_type: 'password',
        username: email,
        password,
      }).toString(),
    });
    expect(token.status).toBe(200);
    return ((await token.json()) as TokenResponse).access_token;
  }

  async function licencesOf(email: string): Promise<Licence[]> {
    const response = await fetch(`${server.baseUrl}/api/v1/limiter/on-premise/licenses`, {
      headers: { authorization: `Bearer ${await accessToken(email)}` },
    });
    expect(response.status).toBe(200);
    return (await response.json()) as Licence[];
  }

  async function postReport(email: string, report: string): Promise<Response> {
    return fetch(`${server.baseUrl}/api/v1/limiter/on-premise/licenses/usage-reports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await accessToken(email)}`, 'content-type': 'application/json' },
      body: report,
    });
  }

  async function uploadReport(email: string, report: string): Promise<UsageReportResult> {
    const response = await postReport(email, report);
    expect(response.status).toBe(200);
    return (await response.json()) as UsageReportResult;
  }

  async function uploadReportStatus(email: string, report: string): Promise<number> {
    return (await postReport(email, report)).status;
  }

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'verbatim-licences-cli-'));
    testDatabase = await createTestDatabase();
    env = serverEnv(
      dataDir,
      testDatabase.config.kind === 'postgres' ? { DATABASE_URL: testDatabase.config.url } : {},
    );
    server = await startServerProcess(env);
    const { database } = loadConfig(env);
    const hash = await new Argon2PasswordHasher().hash(password);
    await withCommandDatabase(database, pino({ level: 'silent' }), async ({ db }) => {
      for (const email of ['clinic@example.com', 'other@example.com']) {
        await new AccountsRepository(db).insert({
          id: newId('acc'),
          email,
          passwordHash: hash,
          fullName: null,
          status: 'active',
          emailVerifiedAt: new Date(),
          startingCreditCents: 0,
        });
      }
    });
  }, 180_000);

  afterAll(async () => {
    await server.stop();
    await testDatabase.drop();
    await rm(dataDir, { recursive: true, force: true });
  }, 120_000);

  it('refuses an unknown account, a past date and zero hours with exit code 1', async () => {
    const issue = (...args: string[]) => runCli(['licenses', 'issue', '--name', 'Ward 7', ...args], env);
    const unknown = await issue('--email', 'nobody@example.com', '--hours', '10', '--expires', inAYear);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No account has the e-mail address nobody@example.com');
    const past = await issue('--email', 'clinic@example.com', '--hours', '10', '--expires', '2020-01-01');
    expect(past.code).toBe(1);
    expect(past.stderr).toContain('2020-01-01 is in the past');
    const zero = await issue('--email', 'clinic@example.com', '--hours', '0', '--expires', inAYear);
    expect(zero.code).toBe(1);
    expect(zero.stderr).toContain('Hours must be more than 0');
    expect(await licencesOf('clinic@example.com')).toEqual([]);
  });

  it('issues a key on its last line, verifiable offline, and manages the licence', async () => {
    const issued = await runCli(
      [
        'licenses',
        'issue',
        '--email',
        'clinic@example.com',
        '--name',
        'Ward 7',
        '--hours',
        '100',
        '--expires',
        inAYear,
        '--grace-days',
        '3',
      ],
      env,
    );
    expect(issued.code, issued.stderr).toBe(0);
    const lines = issued.stdout.trim().split('\n');
    const key = lines.at(-1) ?? '';
    const signature = key.slice(key.lastIndexOf('.') + 1);
    expect(lines.slice(0, -1).join('\n')).not.toContain(signature);
    expect(issued.stderr).not.toContain(signature);

    const published = (await (await fetch(`${server.baseUrl}/api/v1/licensing/public-key`)).json()) as {
      publicKey: string;
    };
    const verified = verifyLicenceKey(parsePublicKey(published.publicKey), key);
    expect(verified.payload).toMatchObject({ name: 'Ward 7', maxUses: 360_000, graceDays: 3 });

    const [listed] = await licencesOf('clinic@example.com');
    expect(listed).toMatchObject({
      name: 'Ward 7',
      keyPrefix: verified.prefix,
      status: 'active',
      uses: 0,
      maxUses: 360_000,
    });
    expect(await licencesOf('other@example.com')).toEqual([]);

    const list = await runCli(['licenses', 'list', '--email', 'clinic@example.com'], env);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain(verified.prefix);
    expect(list.stdout).not.toContain(signature);

    const suspended = await runCli(['licenses', 'suspend', verified.prefix], env);
    expect(suspended.stdout).toContain('is now suspended');
    expect((await licencesOf('clinic@example.com'))[0]?.status).toBe('suspended');
    const resumed = await runCli(['licenses', 'resume', verified.payload.licenceId], env);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect((await licencesOf('clinic@example.com'))[0]?.status).toBe('active');

    const later = new Date(Date.now() + 500 * 86_400_000).toISOString().slice(0, 10);
    const extended = await runCli(
      ['licenses', 'extend', verified.prefix, '--hours', '50', '--expires', later],
      env,
    );
    expect(extended.code, extended.stderr).toBe(0);
    const newKey = extended.stdout.trim().split('\n').at(-1) ?? '';
    expect(verifyLicenceKey(parsePublicKey(published.publicKey), newKey).payload).toMatchObject({
      maxUses: 540_000,
      licenceId: verified.payload.licenceId,
    });
    expect((await licencesOf('clinic@example.com'))[0]).toMatchObject({ maxUses: 540_000 });
    expect((await licencesOf('clinic@example.com'))[0]?.expiry.slice(0, 10)).toBe(later);

    // An air-gapped site (here on the same database: the journal is the installation's) writes its
    // unsent usage to a file; the owner uploads it twice and it counts once.
    const site = { ...env, LICENSE_KEY: newKey, LICENSE_PUBLIC_KEY: published.publicKey };
    await withCommandDatabase(loadConfig(env).database, pino({ level: 'silent' }), async ({ db }) => {
      const journal = new UsageJournal(db);
      await journal.record({
        reference: 'acc:transcript:1',
        accountId: 'acc',
        product: 'http_api',
        seconds: 61,
      });
      await journal.record({
        reference: 'acc:transcript:2',
        accountId: 'acc',
        product: 'http_api',
        seconds: 19,
      });
    });
    const out = path.join(dataDir, 'usage.json');
    const reported = await runCli(['licenses', 'report', '--out', out], site);
    expect(reported.code, reported.stderr).toBe(0);
    expect(reported.stdout).toContain('80 s');
    const again = await runCli(['licenses', 'report', '--out', out], site);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('could not be written');
    const report = await readFile(out, 'utf8');
    const uploads = [
      await uploadReport('clinic@example.com', report),
      await uploadReport('clinic@example.com', report),
    ];
    expect(uploads.map((upload) => upload.batchesCounted)).toEqual([1, 0]);
    expect((await licencesOf('clinic@example.com'))[0]?.uses).toBe(80);
    expect(await uploadReportStatus('other@example.com', report)).toBe(404);

    const unknown = await runCli(['licenses', 'suspend', 'vbl1_nothere0'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No licence has the id or key prefix');
  });
});
