import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  type GetObjectCommandOutput,
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
  UploadPartCopyCommand,
  type CompletedPart,
} from '@aws-sdk/client-s3';
import {
  assertSafeKey,
  offsetPastEnd,
  StorageUnavailableError,
  type ByteRange,
  type FileStorage,
  type LocalCopy,
  type PartialWrite,
} from './file-storage.js';

/** Where the objects live: a bucket of AWS S3 or of an S3-compatible store (MinIO, Ceph, Garage…). */
export interface S3StorageSettings {
  bucket: string;
  region: string;
  /** The store's address when it is not AWS, such as http://minio:9000. */
  endpoint?: string | undefined;
  /** Addresses the bucket as a path (endpoint/bucket/key), which most S3-compatible stores need. */
  forcePathStyle: boolean;
  /** Put before every key: '' or segments ending in '/', such as `verbatim/`. */
  prefix: string;
  /** Without them, the AWS SDK's own chain (AWS_* variables, profiles, instance roles). */
  credentials?: { accessKeyId: string; secretAccessKey: string } | undefined;
}

const mebibyte = 1024 * 1024;
/** S3's smallest part of a multipart upload (except the last one). */
const minimumPartBytes = 5 * mebibyte;
/** Server-side copies of what is kept go in pieces of at most this (S3 allows 5 GiB). */
const copyPieceBytes = 1024 * mebibyte;

/** The store cannot be used as configured: its message names the variable to look at. */
export class S3StorageProblem extends Error {
  constructor(
    readonly variable: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'S3StorageProblem';
  }
}

/**
 * Files as objects of an S3 bucket, one object per key. Objects cannot change in place, so
 * `writeFrom` builds the new object as a multipart upload: the bytes kept before `offset` are
 * copied by the store itself (or, under the 5 MiB a part needs, read back and sent again), then
 * the source follows in parts of `partBytes`. Only the part being filled is held in memory, and
 * the new object replaces the old one at once when the upload completes, with whatever arrived
 * before the source failed.
 */
export class S3FileStorage implements FileStorage {
  readonly #client: S3Client;
  readonly #partBytes: number;

  constructor(
    private readonly settings: S3StorageSettings,
    options: { partBytes?: number } = {},
  ) {
    this.#partBytes = Math.max(minimumPartBytes, options.partBytes ?? 8 * mebibyte);
    this.#client = new S3Client({
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      ...(settings.credentials ? { credentials: settings.credentials } : {}),
      // Checksums only where S3 requires them: not every S3-compatible store knows the newer ones.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      requestHandler: { connectionTimeout: 10_000 },
    });
    // Every failure of the store (after the SDK's own retries) but a missing object becomes a
    // StorageUnavailableError saying what went wrong, so that requests answer 503, not 500.
    this.#client.middlewareStack.add(
      (next) => async (args) => {
        try {
          return await next(args);
        } catch (error) {
          if (isMissing(error)) throw error;
          throw new StorageUnavailableError(this.#problem(error).message, { cause: error });
        }
      },
      { step: 'initialize', name: 'verbatimStorageUnavailable' },
    );
  }

  /** Checks that the bucket exists and these credentials may use it; throws an S3StorageProblem. */
  async verify(): Promise<void> {
    try {
      await this.check();
    } catch (error) {
      throw this.#problem(error instanceof StorageUnavailableError ? error.cause : error);
    }
  }

  async check(signal?: AbortSignal): Promise<void> {
    try {
      await this.#client.send(
        new HeadBucketCommand({ Bucket: this.settings.bucket }),
        signal ? { abortSignal: signal } : {},
      );
    } catch (error) {
      // A bucket gone answers HEAD with a bare 404, which object reads take for a missing object.
      if (error instanceof StorageUnavailableError) throw error;
      throw new StorageUnavailableError(this.#problem(error).message, { cause: error });
    }
  }

  close(): void {
    this.#client.destroy();
  }

  async put(key: string, data: Buffer): Promise<void> {
    await this.#client.send(
      new PutObjectCommand({ Bucket: this.settings.bucket, Key: this.#key(key), Body: data }),
    );
  }

  async get(key: string): Promise<Buffer | undefined> {
    const object = await this.#getObject(key);
    if (!object?.Body) return undefined;
    const bytes = await object.Body.transformToByteArray();
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  async exists(key: string): Promise<boolean> {
    return (await this.size(key)) !== undefined;
  }

  async size(key: string): Promise<number | undefined> {
    try {
      const head = await this.#client.send(
        new HeadObjectCommand({ Bucket: this.settings.bucket, Key: this.#key(key) }),
      );
      return head.ContentLength ?? 0;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.#abortUnfinished(this.#key(key));
    await this.#client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.#key(key) }));
  }

  async writeFrom(
    key: string,
    offset: number,
    source: Readable,
    options: { maxSize: number; limitError: () => Error },
  ): Promise<PartialWrite> {
    const objectKey = this.#key(key);
    if (!Number.isSafeInteger(offset) || offset < 0) throw new RangeError(`invalid offset ${offset}`);
    const existing = await this.size(key);
    const held = existing ?? 0;
    if (offset > held) return offsetPastEnd(key, held, offset);
    await this.#abortUnfinished(objectKey);
    const upload = new MultipartUpload(this.#client, this.settings.bucket, objectKey);
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let prefixPlaced = offset === 0;
    // The bytes kept before the offset come first: copied by the store, or read back when too few.
    const placePrefix = async () => {
      if (prefixPlaced) return;
      prefixPlaced = true;
      if (offset >= minimumPartBytes) {
        for (const [start, end] of copyPieces(offset)) await upload.copy(start, end);
      } else {
        pending = [await this.#range(objectKey, offset), ...pending];
        pendingBytes += offset;
      }
    };
    const sendPending = async () => {
      const body = Buffer.concat(pending, pendingBytes);
      pending = [];
      pendingBytes = 0;
      await upload.part(body);
    };

    let written = 0;
    let error: unknown;
    try {
      try {
        for await (const chunk of source as AsyncIterable<Buffer | string>) {
          const data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
          if (offset + written + data.length > options.maxSize) {
            error = options.limitError();
            break;
          }
          pending.push(data);
          pendingBytes += data.length;
          written += data.length;
          if (pendingBytes >= this.#partBytes) {
            await storing(placePrefix());
            await storing(sendPending());
          }
        }
      } catch (caught) {
        if (caught instanceof StoreFailure) throw caught.cause;
        error = caught;
      }
      const unchanged = written === 0 && offset === held && existing !== undefined;
      if (unchanged) {
        await upload.abort();
      } else {
        await placePrefix();
        if (upload.started) {
          if (pendingBytes > 0) await sendPending();
          await upload.complete();
        } else {
          await this.#client.send(
            new PutObjectCommand({
              Bucket: this.settings.bucket,
              Key: objectKey,
              Body: Buffer.concat(pending, pendingBytes),
            }),
          );
        }
      }
    } catch (storeError) {
      await upload.abort().catch(() => undefined);
      throw storeError;
    }
    const size = offset + written;
    return error === undefined ? { size } : { size, error };
  }

  async read(key: string, range?: ByteRange): Promise<Readable | undefined> {
    // Only the bytes asked for leave the store: a player seeking in an hour-long recording.
    const object = await this.#getObject(key, range ? `bytes=${range.start}-${range.end}` : undefined);
    if (!object?.Body) return undefined;
    if (!(object.Body instanceof Readable))
      throw new Error('the S3 client answered a body that is not a stream');
    return object.Body;
  }

  async localCopy(key: string): Promise<LocalCopy> {
    const stream = await this.read(key);
    if (!stream) throw new Error(`nothing is stored under "${key}"`);
    const folder = await mkdtemp(path.join(tmpdir(), 'verbatim-s3-'));
    const file = path.join(folder, key.split('/').at(-1) ?? 'object');
    const release = () => rm(folder, { recursive: true, force: true });
    try {
      await pipeline(stream, createWriteStream(file, { mode: 0o600 }));
    } catch (error) {
      await release();
      throw error;
    }
    return { path: file, release };
  }

  async #getObject(key: string, range?: string): Promise<GetObjectCommandOutput | undefined> {
    try {
      return await this.#client.send(
        new GetObjectCommand({
          Bucket: this.settings.bucket,
          Key: this.#key(key),
          ...(range ? { Range: range } : {}),
        }),
      );
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  /**
   * Drops the rewrites of the object that never completed: one writer writes a key at a time, so
   * they are of a writer that is gone (a process killed in the middle of a chunk), and their
   * parts would otherwise stay in the bucket, billed, until a lifecycle rule removes them.
   */
  async #abortUnfinished(objectKey: string): Promise<void> {
    const listing = await this.#client.send(
      new ListMultipartUploadsCommand({ Bucket: this.settings.bucket, Prefix: objectKey }),
    );
    for (const upload of listing.Uploads ?? []) {
      if (upload.Key !== objectKey || upload.UploadId === undefined) continue;
      await this.#client.send(
        new AbortMultipartUploadCommand({
          Bucket: this.settings.bucket,
          Key: objectKey,
          UploadId: upload.UploadId,
        }),
      );
    }
  }

  /** The object's first `length` bytes. */
  async #range(objectKey: string, length: number): Promise<Buffer> {
    const object = await this.#client.send(
      new GetObjectCommand({ Bucket: this.settings.bucket, Key: objectKey, Range: `bytes=0-${length - 1}` }),
    );
    const bytes = await object.Body?.transformToByteArray();
    if (bytes?.byteLength !== length)
      throw new StorageUnavailableError(`the store answered ${bytes?.byteLength ?? 0} of ${length} bytes`);
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  #key(key: string): string {
    assertSafeKey(key);
    return `${this.settings.prefix}${key}`;
  }

  #problem(error: unknown): S3StorageProblem {
    const { bucket, endpoint, region } = this.settings;
    const where = endpoint ? `at ${endpoint}` : `in AWS region ${region}`;
    if (error instanceof S3ServiceException) {
      const status = error.$metadata.httpStatusCode;
      if (status === 404 || error.name === 'NoSuchBucket' || error.name === 'NotFound') {
        return new S3StorageProblem('S3_BUCKET', `the bucket "${bucket}" does not exist ${where}`, {
          cause: error,
        });
      }
      if (status === 403 || status === 401) {
        return new S3StorageProblem(
          'S3_ACCESS_KEY_ID',
          `the store ${where} refused access to the bucket "${bucket}": wrong credentials, or they may not use it`,
          { cause: error },
        );
      }
      if (status === 301 || error.name === 'PermanentRedirect') {
        return new S3StorageProblem('S3_REGION', `the bucket "${bucket}" is not in region ${region}`, {
          cause: error,
        });
      }
      return new S3StorageProblem(
        'S3_BUCKET',
        `the store ${where} answered ${status ?? '?'} ${error.name} for the bucket "${bucket}"`,
        { cause: error },
      );
    }
    const reason = error instanceof Error ? error.message : String(error);
    return new S3StorageProblem(
      endpoint ? 'S3_ENDPOINT' : 'S3_REGION',
      `the store ${where} cannot be reached (${reason})`,
      {
        cause: error,
      },
    );
  }
}

/** A multipart upload started on first use; its parts numbered in order. */
class MultipartUpload {
  #uploadId: string | undefined;
  readonly #parts: CompletedPart[] = [];

  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    private readonly key: string,
  ) {}

  get started(): boolean {
    return this.#uploadId !== undefined;
  }

  async part(body: Buffer): Promise<void> {
    await this.#add(
      async (target) => (await this.client.send(new UploadPartCommand({ ...target, Body: body }))).ETag,
    );
  }

  /** Bytes [start, end) of the object as it is now, copied by the store into the next part. */
  async copy(start: number, end: number): Promise<void> {
    await this.#add(
      async (target) =>
        (
          await this.client.send(
            new UploadPartCopyCommand({
              ...target,
              CopySource: `${this.bucket}/${this.key}`,
              CopySourceRange: `bytes=${start}-${end - 1}`,
            }),
          )
        ).CopyPartResult?.ETag,
    );
  }

  /** Sends the next part (numbered in order) and keeps the ETag that completing it needs. */
  async #add(
    send: (target: {
      Bucket: string;
      Key: string;
      UploadId: string;
      PartNumber: number;
    }) => Promise<string | undefined>,
  ): Promise<void> {
    const target = {
      Bucket: this.bucket,
      Key: this.key,
      UploadId: await this.#start(),
      PartNumber: this.#parts.length + 1,
    };
    this.#parts.push({ PartNumber: target.PartNumber, ETag: await send(target) });
  }

  async complete(): Promise<void> {
    await this.client.send(
      new CompleteMultipartUploadCommand({
        Bucket: this.bucket,
        Key: this.key,
        UploadId: this.#uploadId,
        MultipartUpload: { Parts: this.#parts },
      }),
    );
    this.#uploadId = undefined;
  }

  async abort(): Promise<void> {
    if (this.#uploadId === undefined) return;
    const uploadId = this.#uploadId;
    this.#uploadId = undefined;
    await this.client.send(
      new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: this.key, UploadId: uploadId }),
    );
  }

  async #start(): Promise<string> {
    if (this.#uploadId !== undefined) return this.#uploadId;
    const answer = await this.client.send(
      new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: this.key }),
    );
    if (!answer.UploadId) throw new Error('the store started a multipart upload without an id');
    this.#uploadId = answer.UploadId;
    return answer.UploadId;
  }
}

/** A failure of the store while the source was being read: not the source's fault. */
class StoreFailure extends Error {}

async function storing(work: Promise<void>): Promise<void> {
  try {
    await work;
  } catch (error) {
    throw new StoreFailure('the store failed', { cause: error });
  }
}

/** [start, end) ranges covering [0, length), each at least the 5 MiB a part needs. */
function copyPieces(length: number): [number, number][] {
  const pieces: [number, number][] = [];
  for (let start = 0; start < length; start += copyPieceBytes) {
    pieces.push([start, Math.min(length, start + copyPieceBytes)]);
  }
  const last = pieces.at(-1);
  const before = pieces.at(-2);
  if (last && before && last[1] - last[0] < minimumPartBytes) {
    pieces.pop();
    before[1] = last[1];
  }
  return pieces;
}

function isMissing(error: unknown): boolean {
  return (
    error instanceof S3ServiceException &&
    error.name !== 'NoSuchBucket' &&
    (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404)
  );
}
