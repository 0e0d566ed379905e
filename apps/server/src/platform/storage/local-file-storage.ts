import { randomBytes } from 'node:crypto';
import { constants, createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { access, mkdir, open, readFile, rename, rm, stat, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  assertSafeKey,
  offsetPastEnd,
  StorageUnavailableError,
  type ByteRange,
  type FileStorage,
  type LocalCopy,
  type PartialWrite,
} from './file-storage.js';

/** The embedded default: files under a local folder (DATA_DIR/files). */
export class LocalFileStorage implements FileStorage {
  constructor(private readonly root: string) {}

  // A folder answers at once (or its disk errs): the signal is for stores across a network.
  async check(): Promise<void> {
    await this.#io(async () => {
      await mkdir(this.root, { recursive: true });
      await access(this.root, constants.R_OK | constants.W_OK);
    });
  }

  async put(key: string, data: Buffer): Promise<void> {
    const file = this.#path(key);
    await this.#io(async () => {
      await mkdir(path.dirname(file), { recursive: true });
      // Write then rename, so a reader never sees half a file.
      const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
      await writeFile(temporary, data);
      await rename(temporary, file);
    });
  }

  async get(key: string): Promise<Buffer | undefined> {
    const file = this.#path(key);
    return this.#io(async () => {
      try {
        return await readFile(file);
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    });
  }

  async exists(key: string): Promise<boolean> {
    return (await this.size(key)) !== undefined;
  }

  async size(key: string): Promise<number | undefined> {
    const file = this.#path(key);
    return this.#io(async () => {
      try {
        const stats = await stat(file);
        return stats.isFile() ? stats.size : undefined;
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    });
  }

  async delete(key: string): Promise<void> {
    const file = this.#path(key);
    await this.#io(() => rm(file, { force: true }));
  }

  async writeFrom(
    key: string,
    offset: number,
    source: Readable,
    options: { maxSize: number; limitError: () => Error },
  ): Promise<PartialWrite> {
    const file = this.#path(key);
    await this.#io(() => mkdir(path.dirname(file), { recursive: true }));
    const held = (await this.size(key)) ?? 0;
    if (offset > held) return offsetPastEnd(key, held, offset);
    await this.#io(async () => {
      // Create it if missing, then drop what an interrupted earlier write left past the offset.
      await (await open(file, 'a', 0o600)).close();
      await truncate(file, offset);
    });
    let written = 0;
    const limiter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        if (offset + written + chunk.length > options.maxSize) {
          callback(options.limitError());
          return;
        }
        written += chunk.length;
        callback(null, chunk);
      },
    });
    let error: unknown;
    try {
      // flush: the bytes are on disk before the size is reported (and recorded as received).
      await pipeline(source, limiter, createWriteStream(file, { flags: 'r+', start: offset, flush: true }));
    } catch (caught) {
      // The disk's failures (full, read-only) are the store's; the source's stay the source's.
      error = storeFailure(caught, this.root) ?? caught;
    }
    const { size } = await this.#io(() => stat(file));
    return error === undefined ? { size } : { size, error };
  }

  async read(key: string, range?: ByteRange): Promise<Readable | undefined> {
    const file = this.#path(key);
    const stream: ReadStream = createReadStream(file, range);
    try {
      await new Promise<void>((resolve, reject) => {
        stream.once('open', () => resolve());
        stream.once('error', reject);
      });
      return stream;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw storeFailure(error, this.root) ?? error;
    }
  }

  localCopy(key: string): Promise<LocalCopy> {
    // Already a local file: nothing to copy or to clean up (an unsafe key rejects, as elsewhere).
    return Promise.resolve().then(() => ({ path: this.#path(key), release: () => Promise.resolve() }));
  }

  async #io<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw storeFailure(error, this.root) ?? error;
    }
  }

  #path(key: string): string {
    assertSafeKey(key);
    return path.join(this.root, ...key.split('/'));
  }
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}

/** What the system answers when the disk, not the request, is at fault. */
const storeErrnoCodes = new Set([
  'ENOSPC',
  'EDQUOT',
  'EROFS',
  'EIO',
  'EACCES',
  'EPERM',
  'ENOTDIR',
  'EEXIST',
  'EMFILE',
  'ENFILE',
]);

/** The disk's failure as a StorageUnavailableError naming the folder; undefined for other errors. */
function storeFailure(error: unknown, root: string): StorageUnavailableError | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code, syscall } = error as NodeJS.ErrnoException;
  if (code === undefined || !storeErrnoCodes.has(code)) return undefined;
  return new StorageUnavailableError(`the folder ${root} failed: ${code}${syscall ? ` (${syscall})` : ''}`, {
    cause: error,
  });
}
