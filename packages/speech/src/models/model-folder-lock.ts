import { open, readFile, stat, unlink, utimes } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ModelDownloadError } from './model-download-error.js';

/** How often the holder touches its lock file, and how old an untouched one must be to count as abandoned. */
const refreshEveryMs = 10_000;
const staleAfterMs = 60_000;

export interface ModelFolderLock {
  release(): Promise<void>;
}

interface LockOwner {
  pid: number;
  hostname: string;
  since: string;
}

/**
 * Keeps two processes (two servers on one models folder, a server and the CLI) from writing the same
 * model at once: `<file>.lock` created with O_EXCL, holding the owner's pid and host. A lock whose
 * process is gone (same host), or that nobody touched for a minute (a crash on another host sharing
 * the folder), is taken over.
 */
export async function lockModelFile(modelsDir: string, fileName: string): Promise<ModelFolderLock> {
  const lockPath = path.join(modelsDir, `${fileName}.lock`);
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(lockPath, 'wx');
      const owner: LockOwner = { pid: process.pid, hostname: os.hostname(), since: new Date().toISOString() };
      await handle.writeFile(JSON.stringify(owner));
      await handle.close();
      return heldLock(lockPath);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = await lockOwner(lockPath);
      if (attempt === 0 && (await isAbandoned(lockPath, owner))) {
        await unlink(lockPath).catch(() => undefined);
        continue;
      }
      throw new ModelDownloadError(
        'BUSY',
        `${fileName} is being downloaded by another process${owner ? ` (pid ${owner.pid} on ${owner.hostname})` : ''}; wait for it, or delete ${lockPath} if no such process runs`,
      );
    }
  }
}

function heldLock(lockPath: string): ModelFolderLock {
  const refresh = setInterval(() => {
    const now = new Date();
    utimes(lockPath, now, now).catch(() => undefined);
  }, refreshEveryMs);
  refresh.unref();
  return {
    async release() {
      clearInterval(refresh);
      await unlink(lockPath).catch(() => undefined);
    },
  };
}

async function lockOwner(lockPath: string): Promise<LockOwner | undefined> {
  try {
    const parsed = JSON.parse(await readFile(lockPath, 'utf8')) as Partial<LockOwner>;
    return typeof parsed.pid === 'number' && typeof parsed.hostname === 'string'
      ? { pid: parsed.pid, hostname: parsed.hostname, since: String(parsed.since) }
      : undefined;
  } catch {
    return undefined;
  }
}

async function isAbandoned(lockPath: string, owner: LockOwner | undefined): Promise<boolean> {
  if (owner?.hostname === os.hostname() && owner.pid !== process.pid && !isRunning(owner.pid)) return true;
  const modified = await stat(lockPath).then(
    (stats) => stats.mtimeMs,
    () => 0,
  );
  return Date.now() - modified > staleAfterMs;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
