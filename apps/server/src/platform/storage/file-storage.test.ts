import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3StandIn } from '../../test-support/s3/s3-stand-in.js';
import type { FileStorage } from './file-storage.js';
import { LocalFileStorage } from './local-file-storage.js';
import { S3FileStorage, S3StorageProblem } from './s3-file-storage.js';

const mib = 1024 * 1024;

/** Deterministic bytes, different for each seed. */
function bytes(size: number, seed: number): Buffer {
  const data = Buffer.alloc(size);
  for (let index = 0; index < size; index++) data[index] = (index * 31 + seed * 7 + (index >> 13)) & 0xff;
  return data;
}

/** Sends the data in 64 KiB chunks, as a request body arrives. */
function chunked(data: Buffer, chunkBytes = 64 * 1024): Readable {
  return Readable.from(
    (function* () {
      for (let start = 0; start < data.length; start += chunkBytes)
        yield data.subarray(start, start + chunkBytes);
    })(),
  );
}

/** Sends `sent` bytes, then fails as a dropped connection does. */
function failingAfter(data: Buffer, sent: number): Readable {
  return Readable.from(
    (async function* () {
      for (let start = 0; start < sent; start += 64 * 1024)
        yield data.subarray(start, Math.min(sent, start + 64 * 1024));
      await new Promise((resolve) => setTimeout(resolve, 20));
      throw new Error('connection reset by peer');
    })(),
  );
}

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const limits = { maxSize: 100 * mib, limitError: () => new Error('too large') };

interface Subject {
  storage: FileStorage;
  /** Whether `localCopy` makes a copy that `release` removes (S3), or hands the stored file (local). */
  temporaryCopies: boolean;
  close(): Promise<void>;
}

let standIn: S3StandIn | undefined;

const subjects: [string, () => Promise<Subject>][] = [
  [
    'LocalFileStorage',
    async () => {
      const folder = await mkdtemp(path.join(tmpdir(), 'verbatim-storage-'));
      return {
        storage: new LocalFileStorage(folder),
        temporaryCopies: false,
        close: () => rm(folder, { recursive: true, force: true }),
      };
    },
  ],
  [
    'S3FileStorage',
    async () => {
      standIn ??= await S3StandIn.start();
      const storage = new S3FileStorage(await standIn.bucket('contract', 'verbatim/'));
      return {
        storage,
        temporaryCopies: true,
        close: () => Promise.resolve(storage.close()),
      };
    },
  ],
];

afterAll(async () => {
  await standIn?.stop();
});

describe.each(subjects)('%s (the FileStorage contract)', (_name, open) => {
  let subject: Subject;
  let storage: FileStorage;

  beforeAll(async () => {
    subject = await open();
    storage = subject.storage;
  }, 300_000);

  afterAll(async () => {
    await subject.close();
  });

  it('puts, gets, sizes, finds and deletes objects; nothing is undefined, not an error', async () => {
    const data = bytes(3000, 1);
    await storage.put('profile-photos/acc_1.jpg', data);
    expect(await storage.get('profile-photos/acc_1.jpg')).toEqual(data);
    expect(await storage.size('profile-photos/acc_1.jpg')).toBe(3000);
    expect(await storage.exists('profile-photos/acc_1.jpg')).toBe(true);

    await storage.put('profile-photos/acc_1.jpg', Buffer.from('replaced'));
    expect((await storage.get('profile-photos/acc_1.jpg'))?.toString()).toBe('replaced');

    await storage.delete('profile-photos/acc_1.jpg');
    expect(await storage.get('profile-photos/acc_1.jpg')).toBeUndefined();
    expect(await storage.size('profile-photos/acc_1.jpg')).toBeUndefined();
    expect(await storage.exists('profile-photos/acc_1.jpg')).toBe(false);
    expect(await storage.read('profile-photos/acc_1.jpg')).toBeUndefined();
    await expect(storage.delete('profile-photos/acc_1.jpg')).resolves.toBeUndefined();
  });

  it('keeps an empty object', async () => {
    await storage.put('empty/put', Buffer.alloc(0));
    expect(await storage.size('empty/put')).toBe(0);
    expect(await storage.writeFrom('empty/stream', 0, Readable.from([]), limits)).toEqual({ size: 0 });
    expect(await storage.exists('empty/stream')).toBe(true);
    expect(await storage.get('empty/stream')).toEqual(Buffer.alloc(0));
  });

  it('writes a stream from byte 0, replacing what was there, and reads it back as a stream', async () => {
    const data = bytes(11 * mib + 123, 2);
    await storage.put('recordings/acc_1/fil_a.media', Buffer.from('an older, shorter object'));
    expect(await storage.writeFrom('recordings/acc_1/fil_a.media', 0, chunked(data), limits)).toEqual({
      size: data.length,
    });
    expect(await storage.size('recordings/acc_1/fil_a.media')).toBe(data.length);
    const stream = await storage.read('recordings/acc_1/fil_a.media');
    expect(stream).toBeInstanceOf(Readable);
    expect((await collect(stream!)).equals(data)).toBe(true);
  });

  it('reads a range of bytes alone (a player seeking), the first, the last and one byte included', async () => {
    const data = bytes(6 * mib + 321, 5);
    await storage.put('recordings/acc_1/fil_range.media', data);
    for (const [start, end] of [
      [0, 0],
      [0, 999],
      [5 * mib - 7, 5 * mib + 4096],
      [data.length - 10, data.length - 1],
    ] as const) {
      const part = await storage.read('recordings/acc_1/fil_range.media', { start, end });
      expect((await collect(part!)).equals(data.subarray(start, end + 1)), `${start}-${end}`).toBe(true);
    }
    expect(await storage.read('recordings/acc_1/none.media', { start: 0, end: 9 })).toBeUndefined();
  });

  it.each([
    ['a few bytes in (the kept bytes are sent again)', 300 * 1024],
    ['past the 5 MiB of an S3 part (the kept bytes are copied by the store)', 6 * mib + 17],
  ])('resumes at the size held after a source that failed %s', async (_case, failAt) => {
    const key = `recordings/acc_1/resume-${failAt}.media`;
    const data = bytes(9 * mib, 3);
    const partial = await storage.writeFrom(key, 0, failingAfter(data, failAt), limits);
    expect((partial.error as Error).message).toBe('connection reset by peer');
    // What arrived is kept and reported: the caller resumes from there.
    expect(partial.size).toBeGreaterThan(0);
    expect(partial.size).toBeLessThanOrEqual(failAt);
    expect(await storage.size(key)).toBe(partial.size);

    const rest = await storage.writeFrom(key, partial.size, chunked(data.subarray(partial.size)), limits);
    expect(rest).toEqual({ size: data.length });
    expect((await storage.get(key))?.equals(data)).toBe(true);
  });

  it('drops what lies past the offset before writing (a chunk sent again from an earlier byte)', async () => {
    await storage.put('short', Buffer.from('0123456789'));
    expect(await storage.writeFrom('short', 4, Readable.from([Buffer.from('abc')]), limits)).toEqual({
      size: 7,
    });
    expect((await storage.get('short'))?.toString()).toBe('0123abc');
    // Nothing sent: the object ends at the offset.
    expect(await storage.writeFrom('short', 2, Readable.from([]), limits)).toEqual({ size: 2 });
    expect((await storage.get('short'))?.toString()).toBe('01');

    const large = bytes(12 * mib, 4);
    await storage.writeFrom('large', 0, chunked(large), limits);
    const tail = bytes(mib, 5);
    expect(await storage.writeFrom('large', 6 * mib, chunked(tail), limits)).toEqual({ size: 7 * mib });
    expect((await storage.get('large'))?.equals(Buffer.concat([large.subarray(0, 6 * mib), tail]))).toBe(
      true,
    );
  });

  it('writes nothing from an offset past the bytes held, and says how many it holds', async () => {
    await storage.put('held', Buffer.from('01234'));
    const past = await storage.writeFrom('held', 9, Readable.from([Buffer.from('x')]), limits);
    expect(past.size).toBe(5);
    expect(past.error).toBeInstanceOf(RangeError);
    expect((await storage.get('held'))?.toString()).toBe('01234');

    const missing = await storage.writeFrom('never-written', 3, Readable.from([Buffer.from('x')]), limits);
    expect(missing.size).toBe(0);
    expect(missing.error).toBeInstanceOf(RangeError);
    expect(await storage.exists('never-written')).toBe(false);
  });

  it('stops with limitError once the object would pass maxSize, keeping what came before', async () => {
    const limitError = new Error('larger than declared');
    const chunks = [bytes(100, 6), bytes(100, 7), bytes(100, 8)];
    const written = await storage.writeFrom('limited', 0, Readable.from(chunks), {
      maxSize: 250,
      limitError: () => limitError,
    });
    expect(written.error).toBe(limitError);
    expect(written.size).toBeLessThanOrEqual(200);
    expect(await storage.size('limited')).toBe(written.size);
    expect((await storage.get('limited'))?.equals(Buffer.concat(chunks).subarray(0, written.size))).toBe(
      true,
    );

    // The limit counts the bytes before the offset too.
    await storage.put('limited', bytes(200, 9));
    const resumed = await storage.writeFrom('limited', 200, Readable.from([bytes(100, 10)]), {
      maxSize: 250,
      limitError: () => limitError,
    });
    expect(resumed).toEqual({ size: 200, error: limitError });
    // Exactly up to the limit is fine.
    expect(
      await storage.writeFrom('limited', 200, Readable.from([bytes(50, 11)]), { ...limits, maxSize: 250 }),
    ).toEqual({
      size: 250,
    });
  });

  it('hands a local file of the object for tools that need a path, released after', async () => {
    const data = bytes(2 * mib, 12);
    await storage.put('recordings/acc_2/fil_b.media', data);
    const copy = await storage.localCopy('recordings/acc_2/fil_b.media');
    expect((await readFile(copy.path)).equals(data)).toBe(true);
    await copy.release();
    expect(existsSync(copy.path)).toBe(!subject.temporaryCopies);
    expect(await storage.size('recordings/acc_2/fil_b.media')).toBe(data.length);
  });

  it('refuses unsafe keys in every operation', async () => {
    for (const key of ['../escape', '/absolute', 'a/../b', '.hidden', 'a//b', '', 'a/', 'with space']) {
      const refused = new RegExp(`unsafe storage key "${key.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}"`);
      await expect(storage.put(key, Buffer.from('x')), key).rejects.toThrow(refused);
      await expect(storage.get(key), key).rejects.toThrow(refused);
      await expect(storage.exists(key), key).rejects.toThrow(refused);
      await expect(storage.size(key), key).rejects.toThrow(refused);
      await expect(storage.delete(key), key).rejects.toThrow(refused);
      await expect(storage.read(key), key).rejects.toThrow(refused);
      await expect(storage.localCopy(key), key).rejects.toThrow(refused);
      await expect(storage.writeFrom(key, 0, Readable.from([]), limits), key).rejects.toThrow(refused);
    }
  });

  it('writes 64 MiB from a stream without holding it in memory', { timeout: 120_000 }, async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const total = 64 * mib;
    const sent = createHash('sha1');
    gc();
    const baseline = process.memoryUsage().arrayBuffers;
    let peak = 0;
    const source = Readable.from(
      (function* () {
        for (let index = 0; index < total / (64 * 1024); index++) {
          const chunk = bytes(64 * 1024, index);
          sent.update(chunk);
          if (index % 32 === 0) {
            gc();
            peak = Math.max(peak, process.memoryUsage().arrayBuffers - baseline);
          }
          yield chunk;
        }
      })(),
    );
    expect(await storage.writeFrom('big/recording.media', 0, source, limits)).toEqual({ size: total });
    expect(peak).toBeLessThan(32 * mib);
    const stored = createHash('sha1');
    for await (const chunk of (await storage.read('big/recording.media'))!) stored.update(chunk as Buffer);
    expect(stored.digest('hex')).toBe(sent.digest('hex'));
  });
});

describe('S3FileStorage against the store itself', () => {
  let s3: S3StandIn;

  beforeAll(async () => {
    s3 = standIn ??= await S3StandIn.start();
  }, 300_000);

  it('keeps one plain object per key, under the prefix, and leaves no multipart upload behind', async () => {
    const storage = new S3FileStorage(await s3.bucket('plain', 'tenant-a/files/'));
    const data = bytes(7 * mib, 13);
    const partial = await storage.writeFrom(
      'recordings/acc_3/fil_c.media',
      0,
      failingAfter(data, 6 * mib),
      limits,
    );
    await storage.writeFrom(
      'recordings/acc_3/fil_c.media',
      partial.size,
      chunked(data.subarray(partial.size)),
      limits,
    );
    await storage.put('profile-photos/acc_3.jpg', Buffer.from('jpeg'));
    expect(await s3.keys('plain')).toEqual([
      'tenant-a/files/profile-photos/acc_3.jpg',
      'tenant-a/files/recordings/acc_3/fil_c.media',
    ]);
    expect((await s3.object('plain', 'tenant-a/files/recordings/acc_3/fil_c.media')).equals(data)).toBe(true);
    expect(await s3.multipartUploads('plain')).toEqual([]);
    storage.close();
  });

  it('names the variable to fix when the bucket does not exist or the store cannot be reached', async () => {
    const settings = await s3.bucket('exists');
    const missing = new S3FileStorage({ ...settings, bucket: 'no-such-bucket' });
    const problem = await missing.verify().catch((error: unknown) => error);
    expect(problem).toBeInstanceOf(S3StorageProblem);
    expect(problem).toMatchObject({
      variable: 'S3_BUCKET',
      message: `the bucket "no-such-bucket" does not exist at ${s3.endpoint}`,
    });
    missing.close();

    const unreachable = new S3FileStorage({ ...settings, endpoint: 'http://127.0.0.1:9' });
    const refused = await unreachable.verify().catch((error: unknown) => error);
    expect(refused).toMatchObject({ variable: 'S3_ENDPOINT' });
    expect((refused as Error).message).toMatch(/^the store at http:\/\/127\.0\.0\.1:9 cannot be reached \(/);
    unreachable.close();

    const present = new S3FileStorage(settings);
    await expect(present.verify()).resolves.toBeUndefined();
    present.close();
  });

  it('names the credentials when the store refuses them', { timeout: 60_000 }, async () => {
    const checking = await S3StandIn.start({ checkCredentials: true });
    try {
      const storage = new S3FileStorage({
        bucket: 'verbatim',
        region: S3StandIn.region,
        endpoint: checking.endpoint,
        forcePathStyle: true,
        prefix: '',
        credentials: { accessKeyId: 'AKIAUNKNOWN', secretAccessKey: 'wrong' },
      });
      const problem = await storage.verify().catch((error: unknown) => error);
      expect(problem).toMatchObject({
        variable: 'S3_ACCESS_KEY_ID',
        message: `the store at ${checking.endpoint} refused access to the bucket "verbatim": wrong credentials, or they may not use it`,
      });
      storage.close();
    } finally {
      await checking.stop();
    }
  });
});
