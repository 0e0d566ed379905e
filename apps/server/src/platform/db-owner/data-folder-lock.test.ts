import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DataFolderInUseError,
  lockDataFolder,
  lockPathOf,
  readFolderOwner,
  type FolderOwner,
} from './data-folder-lock.js';
import { waitFor } from '../../test-support/wait.js';

const contender = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../test-support/lock-contender.ts',
);

const noCompromise = { onCompromised: (error: Error) => expect.unreachable(error.message) };

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((resolve) => child.on('close', resolve));
  if (child.pid === undefined) throw new Error('no pid');
  return child.pid;
}

/** What a process killed with SIGKILL leaves behind: its lock and its owner record. */
async function leaveLockOf(folder: string, owner: Partial<FolderOwner>, lockAgeMs: number): Promise<void> {
  await mkdir(folder, { recursive: true });
  await mkdir(lockPathOf(folder));
  const lockedAt = new Date(Date.now() - lockAgeMs);
  await utimes(lockPathOf(folder), lockedAt, lockedAt);
  await mkdir(`${folder}.owner`, { recursive: true });
  const record = { host: hostname(), startedAt: lockedAt.toISOString(), command: 'cli.js serve', ...owner };
  await writeFile(
    path.join(`${folder}.owner`, 'owner.json'),
    JSON.stringify({ socketPath: '/nowhere', ...record }),
  );
}

describe('lockDataFolder', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'verbatim-lock-'));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('holds the folder with a record of its owner, and lets go of both', async () => {
    const folder = path.join(root, 'plain');
    const lock = await lockDataFolder(folder, noCompromise);
    expect(await readFolderOwner(folder)).toEqual(lock.owner);
    expect(lock.owner).toMatchObject({ pid: process.pid, host: hostname() });
    expect(lock.owner.socketPath).toBe(path.join(`${folder}.owner`, '.s.PGSQL.5432'));
    expect((await stat(`${folder}.owner`)).mode & 0o777).toBe(0o700);

    const second = await lockDataFolder(folder, noCompromise).catch((error: unknown) => error);
    expect(second).toBeInstanceOf(DataFolderInUseError);
    expect((second as DataFolderInUseError).message).toContain(
      `in use by process ${process.pid} on ${hostname()}`,
    );

    await lock.release();
    expect(await readFolderOwner(folder)).toBeNull();
    await expect(stat(lockPathOf(folder))).rejects.toThrow();
    await (await lockDataFolder(folder, noCompromise)).release();
  });

  it('refuses a folder whose owner is alive, even when its lock was refreshed a while ago', async () => {
    const folder = path.join(root, 'alive');
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      await leaveLockOf(folder, { pid: sleeper.pid ?? 0 }, 20_000);
      const refused = await lockDataFolder(folder, noCompromise).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(DataFolderInUseError);
      expect((refused as DataFolderInUseError).owner?.pid).toBe(sleeper.pid);
    } finally {
      sleeper.kill();
    }
  });

  it('takes over the lock of a process that died, within seconds', async () => {
    const folder = path.join(root, 'dead');
    const pid = await deadPid();
    // Refreshed just before the crash: the takeover waits for it to go stale, not a minute.
    await leaveLockOf(folder, { pid }, 0);
    const started = Date.now();
    const lock = await lockDataFolder(folder, noCompromise);
    const tookMs = Date.now() - started;
    expect(lock.owner.pid).toBe(process.pid);
    expect((await readFolderOwner(folder))?.pid).toBe(process.pid);
    expect(tookMs).toBeGreaterThanOrEqual(3000);
    expect(tookMs).toBeLessThan(10_000);
    await lock.release();
  });

  it('takes over a lock nobody refreshed for a minute, whoever wrote it', async () => {
    const folder = path.join(root, 'abandoned');
    await leaveLockOf(folder, { pid: 1, host: 'another-host' }, 61_000);
    const lock = await lockDataFolder(folder, noCompromise);
    expect(lock.owner.pid).toBe(process.pid);
    await lock.release();
  });

  it('gives a dead owner’s lock to exactly one of several processes taking it over at once', async () => {
    const folder = path.join(root, 'raced');
    await leaveLockOf(folder, { pid: await deadPid() }, 5000);
    const children = Array.from({ length: 4 }, () =>
      spawn(process.execPath, ['--conditions=source', '--import', 'tsx', contender, folder], {
        stdio: ['pipe', 'pipe', 'inherit'],
      }),
    );
    const outputs = children.map((child) => {
      const lines: string[] = [];
      child.stdout.setEncoding('utf8').on('data', (text: string) => lines.push(...text.trim().split('\n')));
      return lines;
    });
    try {
      await waitFor(() => outputs.every((lines) => lines.includes('READY')), 'the contenders', 60_000);
      for (const child of children) child.stdin.write('go\n');
      await waitFor(() => outputs.every((lines) => lines.length >= 2), 'every contender’s outcome', 30_000);
      // Held a while: a lock also taken by another would be reported compromised at its next refresh.
      await new Promise((resolve) => setTimeout(resolve, 2500));
      const outcomes = outputs.map((lines) => lines.slice(1).join(' ').split(' ')[0]);
      expect(outcomes.filter((outcome) => outcome === 'WON')).toHaveLength(1);
      expect(outcomes.filter((outcome) => outcome === 'LOST')).toHaveLength(3);
      const winner = children[outcomes.indexOf('WON')];
      expect((await readFolderOwner(folder))?.pid).toBe(winner?.pid);
    } finally {
      for (const child of children) child.stdin.end();
      await Promise.all(children.map((child) => new Promise((resolve) => child.once('close', resolve))));
    }
  }, 120_000);
});
