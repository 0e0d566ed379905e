import type { Readable } from 'node:stream';

/** What `writeFrom` leaves behind: the stored size, and why the source stopped early (if it did). */
export interface PartialWrite {
  /** Bytes the object holds now: what arrived is kept, even when the source failed midway. */
  size: number;
  error?: unknown;
}

/** Bytes `start` to `end` of an object, both included. */
export interface ByteRange {
  start: number;
  end: number;
}

/** A stored object as a file on this machine, for tools that need a path (ffmpeg). */
export interface LocalCopy {
  path: string;
  release(): Promise<void>;
}

/**
 * The store cannot be used right now (unreachable, failing, or refusing this installation): the
 * request may succeed later, so it answers 503 STORAGE_UNAVAILABLE, never a 500. The message is
 * for the operator's log and /ready, not for API clients.
 */
export class StorageUnavailableError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'StorageUnavailableError';
  }
}

/** Files the product keeps (photos, uploads, transcripts, invoices), by key such as `profile-photos/acc_1.jpg`. */
export interface FileStorage {
  put(key: string, data: Buffer): Promise<void>;
  get(key: string): Promise<Buffer | undefined>;
  exists(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
  /** Bytes stored under the key; undefined when there is nothing. */
  size(key: string): Promise<number | undefined>;
  /**
   * Streams `source` into the object from byte `offset` (anything after it is dropped first), never
   * holding it in memory; stops with `limitError()` once the object would pass `maxSize` bytes.
   * An offset past the bytes held writes nothing: the answer's error says so, with the size held.
   * One writer at a time per key (callers hold the upload's lock): what an earlier writer left
   * unfinished under the key (an S3 multipart rewrite of a killed process) is dropped first.
   */
  writeFrom(
    key: string,
    offset: number,
    source: Readable,
    options: { maxSize: number; limitError: () => Error },
  ): Promise<PartialWrite>;
  /**
   * The object's bytes as a stream, or only bytes `range.start` to `range.end` (both included,
   * within the object: the caller knows its size); undefined when there is nothing.
   */
  read(key: string, range?: ByteRange): Promise<Readable | undefined>;
  localCopy(key: string): Promise<LocalCopy>;
  /**
   * Resolves when the store can be read and written now; otherwise (or once `signal` aborts) a
   * StorageUnavailableError.
   */
  check(signal?: AbortSignal): Promise<void>;
}

/** The answer of `writeFrom` at an offset past the bytes held: nothing written, nothing dropped. */
export function offsetPastEnd(key: string, held: number, offset: number): PartialWrite {
  return {
    size: held,
    error: new RangeError(`"${key}" holds ${held} bytes: it cannot be written from byte ${offset}`),
  };
}

/** Keys are relative paths of safe segments: no traversal, no hidden files, no absolute paths. */
export function assertSafeKey(key: string): void {
  const segments = key.split('/');
  if (
    segments.length === 0 ||
    segments.some(
      (segment) => !/^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}$/.test(segment) || segment.includes('..'),
    )
  ) {
    throw new Error(`unsafe storage key "${key}"`);
  }
}
