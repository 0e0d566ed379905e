import { chmod, mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import lockfile from 'proper-lockfile';

/** Who holds a data folder: written beside the lock once it is taken, removed when it is let go. */
export interface FolderOwner {
  pid: number;
  host: string;
  /** ISO time the owner took the folder. */
  startedAt: string;
  /** The owner's command line, e.g. `cli.js serve`. */
  command: string;
  /** Unix socket on which the owner serves its database session (see session-socket-server.ts). */
  socketPath: string;
}

/** The folder is held by another live process (or one whose lock is not stale yet). */
export class DataFolderInUseError extends Error {
  constructor(
    readonly directory: string,
    readonly owner: FolderOwner | null,
  ) {
    const who = owner
      ? `process ${owner.pid} on ${owner.host} (${owner.command}, since ${owner.startedAt})`
      : 'another process that is just starting';
    super(`the embedded database in ${directory} is in use by ${who}`);
    this.name = 'DataFolderInUseError';
  }
}

export interface DataFolderLock {
  owner: FolderOwner;
  /** Removes the owner record and the lock: call only once the database is closed. */
  release: () => Promise<void>;
}

export interface LockOptions {
  /** Called if the lock is taken from this process while it runs; the caller must stop writing at once. */
  onCompromised: (error: Error) => void;
}

/**
 * The lock is proper-lockfile's: an atomic `mkdir` of `<folder>.lock`, whose mtime the owner
 * refreshes every UPDATE_MS. Taking a lock over is a separate, serialised step (see `takeOver`).
 */
const UPDATE_MS = 1000;
/** A lock nobody refreshed for this long is abandoned, whoever wrote it (another host, a recycled pid). */
const STALE_MS = 60_000;
/** A lock whose recorded owner is a process of this host that is gone (kill -9, a crash) is taken sooner. */
const DEAD_OWNER_STALE_MS = 3000;
/** proper-lockfile's staleness for a plain acquisition: never, so that only `takeOver` removes a lock. */
const NEVER_STALE_MS = 2 ** 31 - 1;
/** sun_path is 108 bytes on Linux and 104 on macOS, with its terminating NUL. */
const MAX_SOCKET_PATH = 100;

/** Folders this process holds: its own record is not a dead process's. */
const heldHere = new Set<string>();

export function lockPathOf(directory: string): string {
  return `${directory}.lock`;
}

function ownerDirectoryOf(directory: string): string {
  return `${directory}.owner`;
}

function ownerFileOf(directory: string): string {
  return path.join(ownerDirectoryOf(directory), 'owner.json');
}

/** The folder's owner record, or null when there is none (or it is being rewritten). */
export async function readFolderOwner(directory: string): Promise<FolderOwner | null> {
  try {
    const record = JSON.parse(await readFile(ownerFileOf(directory), 'utf8')) as Partial<FolderOwner>;
    if (typeof record.pid !== 'number' || typeof record.socketPath !== 'string') return null;
    return {
      pid: record.pid,
      host: String(record.host),
      startedAt: String(record.startedAt),
      command: String(record.command),
      socketPath: record.socketPath,
    };
  } catch {
    return null;
  }
}

/** True when the record names a process of this host that is gone. */
export function isOwnerGone(owner: FolderOwner, directory: string): boolean {
  if (owner.host !== hostname()) return false;
  // A restarted container often gets the same pid as the process it replaces.
  if (owner.pid === process.pid) return !heldHere.has(directory);
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Takes the folder for this process, or throws DataFolderInUseError naming its owner. A stale lock
 * (its owner died) is taken over. The folder is created if missing.
 */
export async function lockDataFolder(directory: string, options: LockOptions): Promise<DataFolderLock> {
  const folder = path.resolve(directory);
  await mkdir(folder, { recursive: true });
  const lockOptions = {
    lockfilePath: lockPathOf(folder),
    realpath: false,
    update: UPDATE_MS,
    onCompromised: (error: Error) => options.onCompromised(error),
  };
  let unlock: () => Promise<void>;
  let endTakeover = () => Promise.resolve();
  try {
    unlock = await lockfile.lock(folder, { ...lockOptions, stale: NEVER_STALE_MS });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    endTakeover = await beginTakeover(folder);
    try {
      unlock = await takeOver(folder, lockOptions);
    } catch (takeoverError) {
      await endTakeover();
      throw takeoverError;
    }
  }

  const socketPath = await socketPathFor(folder).catch(async (error: unknown) => {
    await endTakeover();
    throw error;
  });
  const owner: FolderOwner = {
    pid: process.pid,
    host: hostname(),
    startedAt: new Date().toISOString(),
    command: [path.basename(process.argv[1] ?? 'node'), process.argv[2] ?? ''].join(' ').trim(),
    socketPath,
  };
  const release = async () => {
    heldHere.delete(folder);
    await rm(ownerFileOf(folder), { force: true });
    const socketDirectory = path.dirname(socketPath);
    if (socketDirectory !== ownerDirectoryOf(folder))
      await rm(socketDirectory, { recursive: true, force: true });
    await unlock().catch(() => undefined);
  };
  heldHere.add(folder);
  try {
    await writeOwnerRecord(folder, owner);
  } catch (error) {
    await release();
    throw error;
  } finally {
    // Only now: the next process to take over must see this record, not the dead owner's.
    await endTakeover();
  }
  return { owner, release };
}

/**
 * Takeovers happen one at a time, under a second proper-lockfile lock held for a few milliseconds.
 * Without it two processes could both find the lock stale and both "take" it: each removes the lock
 * and creates its own, the later one removing the other's fresh lock — and proper-lockfile's own
 * check cannot tell them apart (both get the same rounded-up mtime within one second).
 */
async function beginTakeover(folder: string): Promise<() => Promise<void>> {
  try {
    // Its own key: proper-lockfile keeps one lock per path in a process, whatever lockfilePath says.
    return await lockfile.lock(`${folder}.takeover`, {
      realpath: false,
      // Nothing to stop if it is lost: it guards the takeover step only, and that step is over.
      onCompromised: () => undefined,
      // Held for milliseconds; if its holder crashed meanwhile, it is stale after a few seconds.
      stale: 5000,
      retries: { retries: 40, minTimeout: 200, maxTimeout: 200, factor: 1 },
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED')
      throw new DataFolderInUseError(folder, await readFolderOwner(folder));
    throw error;
  }
}

/** Takes the lock if it is free or stale, waiting a few seconds for a dead owner's lock to go stale. */
async function takeOver(
  folder: string,
  lockOptions: Omit<lockfile.LockOptions, 'stale'>,
): Promise<() => Promise<void>> {
  const deadline = Date.now() + DEAD_OWNER_STALE_MS + 3 * UPDATE_MS;
  for (;;) {
    const owner = await readFolderOwner(folder);
    const refreshed = await stat(lockPathOf(folder)).then(
      (lock) => lock.mtimeMs,
      () => null,
    );
    const ownerGone = owner !== null && isOwnerGone(owner, folder);
    const stale = ownerGone ? DEAD_OWNER_STALE_MS : STALE_MS;
    if (refreshed === null || Date.now() - refreshed > stale) {
      try {
        // proper-lockfile checks the staleness again, removes the lock and creates ours.
        return await lockfile.lock(folder, { ...lockOptions, stale });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
      }
    }
    // A live owner (or one of another host) keeps its lock; a dead one's goes stale within seconds.
    if (!ownerGone || Date.now() > deadline) throw new DataFolderInUseError(folder, owner);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** `<folder>.owner/.s.PGSQL.5432` (0700 directory), or a private temporary directory if too long. */
async function socketPathFor(folder: string): Promise<string> {
  const directory = ownerDirectoryOf(folder);
  await mkdir(directory, { recursive: true, mode: 0o700 });
  await chmod(directory, 0o700);
  const beside = path.join(directory, '.s.PGSQL.5432');
  if (Buffer.byteLength(beside) <= MAX_SOCKET_PATH) return beside;
  return path.join(await mkdtemp(path.join(tmpdir(), 'verbatim-db-')), '.s.PGSQL.5432');
}

async function writeOwnerRecord(folder: string, owner: FolderOwner): Promise<void> {
  const file = ownerFileOf(folder);
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(owner, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, file);
}
