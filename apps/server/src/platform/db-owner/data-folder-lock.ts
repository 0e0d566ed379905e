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
 * refreshes every second. A lock whose mtime is older than STALE_MS is taken over whoever wrote it
 * (another host, a recycled pid). When the owner record names a process of this host that no longer
 * exists (kill -9, a crash, a power cut), the takeover waits only DEAD_OWNER_STALE_MS.
 */
const UPDATE_MS = 1000;
const STALE_MS = 60_000;
const DEAD_OWNER_STALE_MS = 3000;
/**
 * Two processes taking over the same stale lock can both succeed (each removes the lock, the later
 * one removing the other's fresh one). The loser learns it at its next refresh (UPDATE_MS), so a
 * takeover waits this long before the folder is used.
 */
const TAKEOVER_SETTLE_MS = UPDATE_MS * 1.5;
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
  const lockPath = lockPathOf(folder);
  const previous = await readFolderOwner(folder);
  const existed = await stat(lockPath).then(
    () => true,
    () => false,
  );
  const ownerGone = existed && previous !== null && isOwnerGone(previous, folder);

  let lost: Error | null = null;
  let onCompromised = (error: Error) => {
    lost = error;
  };
  let unlock: () => Promise<void>;
  try {
    unlock = await lockfile.lock(folder, {
      lockfilePath: lockPath,
      realpath: false,
      update: UPDATE_MS,
      stale: ownerGone ? DEAD_OWNER_STALE_MS : STALE_MS,
      // A dead owner refreshed its lock up to a second before it died: wait for it to go stale.
      retries: ownerGone ? { retries: 10, minTimeout: 400, maxTimeout: 400, factor: 1 } : 0,
      onCompromised: (error) => onCompromised(error),
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED')
      throw new DataFolderInUseError(folder, await readFolderOwner(folder));
    throw error;
  }

  if (existed) {
    await new Promise((resolve) => setTimeout(resolve, TAKEOVER_SETTLE_MS));
    if (lost) {
      // The other process won: its lock and record stay (proper-lockfile forgot ours already).
      await unlock().catch(() => undefined);
      throw new DataFolderInUseError(folder, await readFolderOwner(folder));
    }
  }
  const socketPath = await socketPathFor(folder);
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
  }
  onCompromised = options.onCompromised;
  return { owner, release };
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
