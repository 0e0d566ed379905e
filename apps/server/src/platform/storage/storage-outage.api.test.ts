import { rm, writeFile } from 'node:fs/promises';
import { createServer, type Socket } from 'node:net';
import path from 'node:path';
import { apiErrorSchema, readinessSchema } from '@verbatim/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecordingUpload, putChunk } from '../../test-support/files.js';
import { S3StandIn } from '../../test-support/s3/s3-stand-in.js';
import { bearer, createAccount, signIn } from '../../test-support/sign-in.js';
import { startTestRuntime, type TestRuntime } from '../../test-support/test-runtime.js';
import { StorageUnavailableError } from './file-storage.js';
import { S3FileStorage } from './s3-file-storage.js';

const recording = Buffer.from('ID3 an mp3 file of a meeting, sent in one chunk');

async function readiness(runtime: TestRuntime) {
  const response = await runtime.app.inject({ method: 'GET', url: '/api/v1/ready' });
  // The store is reported, not part of `status`: accounts and billing still work without it.
  expect(response.statusCode).toBe(200);
  const ready = readinessSchema.parse(response.json());
  expect(ready.status).toBe('ready');
  return ready.checks.storage;
}

/** A signed-in user sends a recording's only chunk; the answer is returned as it came. */
async function uploadRecording(runtime: TestRuntime) {
  const account = await createAccount(runtime);
  const headers = bearer(await signIn(runtime, account.email));
  const { fileId } = await createRecordingUpload(runtime.app, headers, recording, {
    fileName: 'meeting.mp3',
    type: 'audio/mpeg',
    languageCode: 'en',
  });
  return putChunk(runtime.app, headers, fileId, 0, recording);
}

function expectStorageUnavailable(response: Awaited<ReturnType<typeof uploadRecording>>) {
  expect(response.statusCode).toBe(503);
  expect(response.headers['retry-after']).toBe('5');
  const body = apiErrorSchema.parse(response.json());
  expect(body.code).toBe('STORAGE_UNAVAILABLE');
  // The store's own reason (a folder, an address) is for the operator's log and /ready only.
  expect(body.message).toBe('The file store is not available right now. Please try again in a moment.');
}

describe('local storage that fails', () => {
  let runtime: TestRuntime;
  beforeAll(async () => {
    runtime = await startTestRuntime();
  });
  afterAll(() => runtime.close());

  it('is reported by /ready, and uploads answer 503 STORAGE_UNAVAILABLE instead of 500', async () => {
    expect(await readiness(runtime)).toMatchObject({ ok: true, kind: 'local' });

    // The files folder is gone and a plain file stands in its place: nothing can be stored.
    const folder = path.join(runtime.dataDir, 'files');
    await rm(folder, { recursive: true, force: true });
    await writeFile(folder, 'not a folder');

    const storage = await readiness(runtime);
    expect(storage).toMatchObject({ ok: false, kind: 'local' });
    expect(storage.detail).toContain(folder);
    expectStorageUnavailable(await uploadRecording(runtime));

    await rm(folder);
    expect(await readiness(runtime)).toMatchObject({ ok: true, kind: 'local' });
    const stored = await uploadRecording(runtime);
    expect(stored.statusCode).toBe(200);
    expect(stored.json()).toMatchObject({ size: recording.length, isCompleted: true });
  });
});

describe('an S3 store that stops answering', () => {
  let s3: S3StandIn;
  let runtime: TestRuntime;
  beforeAll(async () => {
    s3 = await S3StandIn.start();
    await s3.bucket('verbatim-outage');
    runtime = await startTestRuntime({ env: s3.env('verbatim-outage') });
  }, 300_000);
  afterAll(async () => {
    await runtime.close();
    await s3.stop();
  });

  it('is reported by /ready, and uploads answer 503 STORAGE_UNAVAILABLE instead of 500', async () => {
    expect(await readiness(runtime)).toMatchObject({ ok: true, kind: 's3' });
    await s3.stop();

    const storage = await readiness(runtime);
    expect(storage).toMatchObject({ ok: false, kind: 's3' });
    expect(storage.detail).toContain(`the store at ${s3.endpoint} cannot be reached`);
    expectStorageUnavailable(await uploadRecording(runtime));
  });
});

describe('an S3 store that takes connections but never answers', () => {
  it('fails its check once the signal aborts, instead of holding the caller', async () => {
    const held: Socket[] = [];
    const silent = createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    const store = new S3FileStorage({
      bucket: 'verbatim-silent',
      region: 'us-east-1',
      endpoint: `http://127.0.0.1:${port}`,
      forcePathStyle: true,
      prefix: '',
      credentials: { accessKeyId: 'key', secretAccessKey: 'secret' },
    });
    try {
      const started = performance.now();
      const failure = await store.check(AbortSignal.timeout(300)).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(StorageUnavailableError);
      expect(performance.now() - started).toBeLessThan(2_000);
    } finally {
      store.close();
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
