import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli as run } from './test-support/cli.js';
import { startSmtpSink, type SmtpSink } from './test-support/smtp-sink.js';

describe('verbatim CLI', () => {
  let dataDir: string;
  let sink: SmtpSink;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'verbatim-cli-'));
    sink = await startSmtpSink();
  });
  afterAll(async () => {
    await sink.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const databaseEnv = (): Record<string, string> =>
    process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : { DATA_DIR: dataDir };

  it('prints its usage', async () => {
    const result = await run(['help'], {});
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: verbatim <command>');
  });

  it('refuses to start with a readable list of every bad variable', async () => {
    const result = await run(['serve'], { PORT: 'x', DATABASE_URL: 'mysql://db', SMTP_URL: 'http://mail' });
    expect(result.code).toBe(78);
    expect(result.stderr).toContain('Invalid configuration:');
    expect(result.stderr).toMatch(/- PORT: /);
    expect(result.stderr).toMatch(/- DATABASE_URL: must be a postgres:\/\/ connection URL/);
    expect(result.stderr).toMatch(/- SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/);
  });

  it('rejects an unknown command', async () => {
    const result = await run(['fly'], {});
    expect(result.code).toBe(64);
    expect(result.stderr).toContain('unknown command "fly"');
  });

  it('migrates the database', async () => {
    const result = await run(['migrate'], databaseEnv());
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/migrations applied|database already up to date/);
  });

  it('sends a test e-mail through the queue and the configured transport', async () => {
    const result = await run(['send-test-email', 'ops@example.com'], {
      ...databaseEnv(),
      SMTP_URL: sink.url,
    });
    expect(result.code, result.stderr + result.stdout).toBe(0);
    expect(sink.received.map((mail) => mail.to)).toEqual([['ops@example.com']]);
    expect(sink.received[0]?.raw).toContain('Subject: Verbatim test message');
  });
});
