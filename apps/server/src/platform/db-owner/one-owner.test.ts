import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { captchaChallengeSchema } from '@verbatim/contracts';
import { solveChallenge } from 'altcha-lib/v1';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/config.js';
import { newId } from '../../lib/ids.js';
import { AccountsRepository } from '../../modules/accounts/accounts.repository.js';
import { emailVerificationGrantType } from '../../modules/identity/identity-provider.js';
import { Argon2PasswordHasher } from '../crypto/password-hasher.js';
import { withCommandDatabase } from '../db/command-database.js';
import { runCli } from '../../test-support/cli.js';
import {
  CliProcess,
  serverEnv,
  startServerProcess,
  type ServerProcess,
} from '../../test-support/server-process.js';
import { waitFor } from '../../test-support/wait.js';
import { readFolderOwner } from './data-folder-lock.js';

/**
 * The embedded database with real processes: a `verbatim serve` on a temporary data folder, the CLI
 * and other servers beside it. Always PGlite, whatever DATABASE_URL says: that is what is tested.
 */
// Each test runs several CLI processes and server (re)starts: tens of seconds each on a busy machine.
describe('one owner per embedded database folder', { timeout: 300_000 }, () => {
  const password = 'Sup3r$ecret';
  let dataDir: string;
  let env: Record<string, string>;
  let server: ServerProcess | null = null;
  const silent = pino({ level: 'silent' });

  const pgliteDir = () => path.join(dataDir, 'pglite');
  const current = (): ServerProcess => {
    if (!server) throw new Error('no server is running');
    return server;
  };

  async function restartServer(): Promise<ServerProcess> {
    if (server) await server.stop();
    server = await startServerProcess(env);
    return server;
  }

  /** The same handle every operator command gets (through the running server, if any). */
  function asOperator<T>(work: Parameters<typeof withCommandDatabase<T>>[2]): Promise<T> {
    const { database } = loadConfig({ DATA_DIR: dataDir });
    return withCommandDatabase(database, silent, work);
  }

  async function register(email: string): Promise<void> {
    const base = current().baseUrl;
    const challenge = captchaChallengeSchema.parse(
      await (await fetch(`${base}/api/v1/auth/captcha/challenge`)).json(),
    );
    const solution = await solveChallenge(
      challenge.challenge,
      challenge.salt,
      challenge.algorithm,
      challenge.maxnumber,
    ).promise;
    const { algorithm, salt, signature } = challenge;
    const reCaptchaKey = Buffer.from(
      JSON.stringify({
        algorithm,
        challenge: challenge.challenge,
        number: solution?.number,
        salt,
        signature,
      }),
    ).toString('base64');
    const response = await fetch(`${base}/api/v1/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password, passConf: password, reCaptchaKey }),
    });
    expect(response.status, await response.clone().text()).toBe(201);
  }

  function tokenRequest(fields: Record<string, string>): Promise<Response> {
    return fetch(`${current().baseUrl}/api/v1/auth/profile/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: 'verbatim-console', ...fields }).toString(),
    });
  }

  const signIn = (email: string) => tokenRequest({ grant_type: 'password', username: email, password });

  /** Opens the verification link the server's worker wrote to the outbox folder. */
  async function verify(email: string): Promise<void> {
    const outbox = path.join(dataDir, 'outbox');
    let code: string | undefined;
    await waitFor(async () => {
      const files = await readdir(outbox).catch(() => []);
      for (const file of files) {
        const text = (await readFile(path.join(outbox, file), 'utf8')).replace(/=\r?\n/g, '');
        if (text.includes(email)) code = /\/auth\/verify\/([A-Za-z0-9_-]+)/.exec(text)?.[1];
      }
      return code !== undefined;
    }, `the verification e-mail to ${email}`);
    const response = await tokenRequest({ grant_type: emailVerificationGrantType, code: code ?? '' });
    expect(response.status, await response.clone().text()).toBe(200);
  }

  async function listedAccounts(): Promise<Map<string, string>> {
    const result = await runCli(['accounts', 'list'], env);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trim().split('\n').slice(1);
    return new Map(lines.map((line) => line.split('\t') as [string, string]));
  }

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'verbatim-owner-'));
    env = serverEnv(dataDir);
    server = await startServerProcess(env);
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  }, 120_000);

  it('records the owner of the folder: pid, host and start time', async () => {
    const owner = await readFolderOwner(pgliteDir());
    expect(owner).toMatchObject({ pid: current().pid, command: 'cli.ts serve' });
    expect(Date.parse(owner?.startedAt ?? '')).toBeGreaterThan(Date.now() - 10 * 60_000);
  });

  it('lists an account created through the server at once, from the CLI', async () => {
    await register('first@example.com');
    expect((await listedAccounts()).get('first@example.com')).toBe('pending_verification');
    await verify('first@example.com');
    expect((await listedAccounts()).get('first@example.com')).toBe('active');
  });

  it('refuses the next sign-in after a CLI deactivation, also after a restart', async () => {
    expect((await signIn('first@example.com')).status).toBe(200);
    const deactivated = await runCli(['accounts', 'deactivate', 'first@example.com'], env);
    expect(deactivated.code, deactivated.stderr).toBe(0);
    expect(deactivated.stdout).toContain('first@example.com is now inactive');

    const refused = await signIn('first@example.com');
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { code: string }).code).toBe('ACCOUNT_INACTIVE');

    await restartServer();
    expect((await signIn('first@example.com')).status).toBe(403);
    expect((await listedAccounts()).get('first@example.com')).toBe('inactive');
  });

  it('refuses a second serve or worker on the folder, naming the owner, and the first keeps serving', async () => {
    const first = current();
    for (const command of ['serve', 'worker']) {
      const second = await new CliProcess([command], env).finished();
      expect(second.code, second.output).not.toBe(0);
      expect(second.output).toContain(`in use by process ${first.pid} `);
      expect(second.output).toContain('DATABASE_URL');
    }
    const health = await fetch(`${first.baseUrl}/api/v1/health`);
    expect(health.status).toBe(200);
    expect((await signIn('first@example.com')).status).toBe(403);
    expect((await readFolderOwner(pgliteDir()))?.pid).toBe(first.pid);
  });

  it('runs migrate and send-test-email beside the server, the server’s workers delivering', async () => {
    const migrated = await runCli(['migrate'], env);
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(migrated.stdout).toContain('database already up to date');

    const sent = await runCli(['send-test-email', 'ops@example.com'], env);
    expect(sent.code, sent.stderr + sent.stdout).toBe(0);
    expect(sent.stdout).toContain('the running server delivers the message');
    expect(sent.stdout).toContain('test e-mail sent');
    const outbox = await readdir(path.join(dataDir, 'outbox'));
    const texts = await Promise.all(
      outbox.map((file) => readFile(path.join(dataDir, 'outbox', file), 'utf8')),
    );
    expect(texts.filter((text) => text.includes('To: ops@example.com'))).toHaveLength(1);
  });

  it('keeps 50 interleaved writes of the server and an operator command across restarts', async () => {
    const approved = await runCli(['accounts', 'approve', 'first@example.com'], env);
    expect(approved.code, approved.stderr).toBe(0);
    const signedIn = await signIn('first@example.com');
    expect(signedIn.status).toBe(200);
    const { access_token: token } = (await signedIn.json()) as { access_token: string };
    const hash = await new Argon2PasswordHasher().hash(password);

    const throughServer = async () => {
      for (let index = 0; index < 25; index++) {
        const response = await fetch(`${current().baseUrl}/api/v1/auth/api-keys`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name: `server-${index}` }),
        });
        expect(response.status, await response.clone().text()).toBe(201);
      }
    };
    const throughOperator = () =>
      asOperator(async ({ db, throughOwner }) => {
        expect(throughOwner?.pid).toBe(current().pid);
        const accounts = new AccountsRepository(db);
        for (let index = 0; index < 25; index++) {
          await accounts.insert({
            id: newId('acc'),
            email: `operator-${index}@example.com`,
            passwordHash: hash,
            status: 'active',
            emailVerifiedAt: new Date(),
            startingCreditCents: 0,
          });
          await new Promise((resolve) => setTimeout(resolve, 15));
        }
      });
    await Promise.all([throughServer(), throughOperator()]);

    await current().stop();
    server = null;
    // Nobody holds the folder now: the CLI opens it itself, under the lock.
    const operatorAccounts = [...(await listedAccounts()).keys()].filter((email) =>
      email.startsWith('operator-'),
    );
    expect(operatorAccounts).toHaveLength(25);

    await restartServer();
    const again = await signIn('first@example.com');
    expect(again.status).toBe(200);
    const keys = (await (
      await fetch(`${current().baseUrl}/api/v1/auth/api-keys`, {
        headers: {
          authorization: `Bearer ${((await again.json()) as { access_token: string }).access_token}`,
        },
      })
    ).json()) as { name: string }[];
    expect(keys.map((key) => key.name).sort()).toEqual(
      Array.from({ length: 25 }, (_, index) => `server-${index}`).sort(),
    );
    expect((await signIn('operator-7@example.com')).status).toBe(200);
  });

  it('takes over the lock of a server killed with SIGKILL, losing nothing it wrote', async () => {
    await register('before-kill@example.com');
    const killed = current();
    await asOperator(({ db }) =>
      new AccountsRepository(db).insert({
        id: newId('acc'),
        email: 'operator-before-kill@example.com',
        passwordHash: null,
        status: 'pending_approval',
        emailVerifiedAt: new Date(),
        startingCreditCents: 0,
      }),
    );
    expect((await killed.kill()).signal).toBe('SIGKILL');
    server = null;
    // The dead server's lock and owner record are still there.
    expect((await readFolderOwner(pgliteDir()))?.pid).toBe(killed.pid);

    const started = Date.now();
    await restartServer();
    expect(Date.now() - started).toBeLessThan(60_000);
    expect((await readFolderOwner(pgliteDir()))?.pid).toBe(current().pid);
    const accounts = await listedAccounts();
    expect(accounts.get('before-kill@example.com')).toBe('pending_verification');
    expect(accounts.get('operator-before-kill@example.com')).toBe('pending_approval');
    expect(accounts.get('first@example.com')).toBe('active');
  });
});
