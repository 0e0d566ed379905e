import { existsSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ApiError, FilesPage, RecordingUploadState, UploadOffsetMismatch } from '@verbatim/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipartBody, openChunkRequest, putChunk, sha1, uploadInChunks } from '../../test-support/files.js';
import { bearer, createAccount, signIn } from '../../test-support/sign-in.js';
import { startTestRuntime, type TestRuntime } from '../../test-support/test-runtime.js';

interface Caller {
  headers: Record<string, string>;
  accountId: string;
}

const mb = 1024 * 1024;

function bytes(size: number, seed: number): Buffer {
  const data = Buffer.alloc(size);
  for (let index = 0; index < size; index++) data[index] = (index * 31 + seed * 7) & 0xff;
  return data;
}

function createRequest(runtime: TestRuntime, caller: Caller, payload: Record<string, unknown>) {
  return runtime.app.inject({
    method: 'POST',
    url: '/api/v1/media/recordings',
    headers: caller.headers,
    payload,
  });
}

function metadataOf(data: Buffer, extra: Record<string, unknown> = {}) {
  return {
    fileName: 'meeting.mp3',
    type: 'audio/mpeg',
    languageCode: 'en',
    size: data.length,
    sha1: sha1(data),
    ...extra,
  };
}

describe('resumable upload (POST /media/recordings, PUT /media/{fileId})', () => {
  let runtime: TestRuntime;
  let alice: Caller;
  let bob: Caller;

  async function newCaller(): Promise<Caller> {
    const account = await createAccount(runtime);
    return { headers: bearer(await signIn(runtime, account.email)), accountId: account.id };
  }

  beforeAll(async () => {
    // No workers: completed uploads stay pending, which is what these tests look at.
    runtime = await startTestRuntime({ env: { FILES_STORAGE_QUOTA_BYTES: String(3 * mb) } });
    alice = await newCaller();
    bob = await newCaller();
  }, 60_000);

  afterAll(async () => {
    await runtime.close();
  });

  it('answers every validation message of the upload (spec §5)', async () => {
    const data = bytes(1000, 1);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ type: 'text/plain' }, 'type', 'Invalid file'],
      [{ type: 'image/png' }, 'type', 'Invalid file'],
      [{ size: 524_288_001 }, 'size', 'Invalid file'],
      [{ size: 0 }, 'size', 'Invalid file'],
      [{ fileName: '' }, 'fileName', 'Invalid file'],
      [{ languageCode: 'e' }, 'languageCode', 'Invalid language'],
      [{ languageCode: '' }, 'languageCode', 'Invalid language'],
      [{ callbackUrl: 'ftp://example.com/hook' }, 'callbackUrl', 'Invalid url'],
      [{ callbackUrl: 'not a url' }, 'callbackUrl', 'Invalid url'],
      [{ sha1: 'abc' }, 'sha1', 'Invalid file'],
    ];
    for (const [change, field, message] of cases) {
      const response = await createRequest(runtime, alice, metadataOf(data, change));
      expect(response.statusCode, JSON.stringify(change)).toBe(400);
      const error = response.json<ApiError>();
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(error.details).toContainEqual({ location: 'body', path: [field], message });
    }
    for (const type of [
      'audio/wav',
      'audio/x-wav',
      'video/ogg',
      'audio/flac',
      'video/webm',
      'video/mp4',
      'audio/mpeg',
    ]) {
      const accepted = await createRequest(
        runtime,
        alice,
        metadataOf(bytes(10, type.length), { type, fileName: `${type}.bin` }),
      );
      expect(accepted.statusCode, type).toBe(200);
      await runtime.app.inject({
        method: 'DELETE',
        url: `/api/v1/files/third-party/${accepted.json<RecordingUploadState>().fileId}`,
        headers: alice.headers,
      });
    }
    // An empty webhook URL means none.
    const empty = await createRequest(runtime, alice, metadataOf(bytes(20, 9), { callbackUrl: '' }));
    expect(empty.statusCode).toBe(200);
  });

  it('uploads in chunks from the size held; a wrong offset answers that size; completes once', async () => {
    const data = bytes(300_000, 2);
    const created = await createRequest(runtime, alice, metadataOf(data, { fileName: 'chunks.mp3' }));
    expect(created.statusCode).toBe(200);
    const state = created.json<RecordingUploadState>();
    expect(state).toMatchObject({ size: 0, isCompleted: false });

    const first = await putChunk(runtime.app, alice.headers, state.fileId, 0, data.subarray(0, 100_000));
    expect(first.json()).toEqual({ fileId: state.fileId, size: 100_000, isCompleted: false });

    for (const wrong of [0, 50_000, 150_000]) {
      const mismatch = await putChunk(
        runtime.app,
        alice.headers,
        state.fileId,
        wrong,
        data.subarray(wrong, wrong + 1000),
      );
      expect(mismatch.statusCode).toBe(409);
      expect(mismatch.json<UploadOffsetMismatch>()).toMatchObject({
        code: 'UPLOAD_OFFSET_MISMATCH',
        size: 100_000,
      });
    }
    // The same file again (a reload): the same upload, resumed where it stands.
    const again = await createRequest(runtime, alice, metadataOf(data, { fileName: 'chunks.mp3' }));
    expect(again.json()).toEqual({ fileId: state.fileId, size: 100_000, isCompleted: false });

    // A raw application/octet-stream chunk works too.
    const raw = await runtime.app.inject({
      method: 'PUT',
      url: `/api/v1/media/${state.fileId}`,
      headers: { ...alice.headers, 'content-type': 'application/octet-stream', 'x-start-byte': '100000' },
      payload: data.subarray(100_000, 200_000),
    });
    expect(raw.json()).toEqual({ fileId: state.fileId, size: 200_000, isCompleted: false });
    const last = await putChunk(runtime.app, alice.headers, state.fileId, 200_000, data.subarray(200_000));
    expect(last.json()).toEqual({ fileId: state.fileId, size: 300_000, isCompleted: true });

    const page = await runtime.app.inject({
      method: 'GET',
      url: '/api/v1/files/third-party?start=0&limit=10',
      headers: alice.headers,
    });
    const row = page.json<FilesPage>().list.find((file) => file.id === state.fileId);
    expect(row).toMatchObject({
      fileName: 'chunks.mp3',
      languageCode: 'en',
      isCompleted: true,
      transcriptStatus: 'pending',
      size: 300_000,
      uploadedSize: 300_000,
      failureReason: null,
      duration: null,
      callbackUrl: null,
      webhookStatus: 'none',
    });

    // The same content once more: refused, as spec §8 says.
    const duplicate = await createRequest(runtime, alice, metadataOf(data, { fileName: 'copy.mp3' }));
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toMatchObject({ code: 'FILE_ALREADY_EXISTS', message: 'File already exists' });
    // Bob may upload the same content: files are per account.
    expect((await createRequest(runtime, bob, metadataOf(data))).statusCode).toBe(200);
  });

  it('answers UPLOAD_IN_PROGRESS with Retry-After to a second writer of the same upload, never an offset', async () => {
    const data = bytes(2 * mb, 5);
    const { fileId } = (
      await createRequest(runtime, alice, metadataOf(data, { fileName: 'twice.mp3' }))
    ).json<RecordingUploadState>();
    await runtime.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = runtime.app.server.address() as AddressInfo;
    // The first writer sends half of its chunk and keeps the request open.
    const first = openChunkRequest(`http://127.0.0.1:${port}`, alice.headers, fileId, 0, data, () => mb);
    await new Promise((resolve) => setTimeout(resolve, 500));

    // The same chunk again (a client that gave up on the first request) while the first is arriving.
    const second = await putChunk(runtime.app, alice.headers, fileId, 0, data);
    expect(second.statusCode).toBe(409);
    const refusal = second.json<ApiError & { retryAfterSeconds: number }>();
    expect(refusal.code).toBe('UPLOAD_IN_PROGRESS');
    expect(refusal.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refusal.retryAfterSeconds).toBeLessThanOrEqual(15);
    expect(Number(second.headers['retry-after'])).toBe(refusal.retryAfterSeconds);

    first.finish();
    const answer = await first.answer;
    expect(answer?.status).toBe(200);
    expect(JSON.parse(answer?.body ?? '')).toEqual({ fileId, size: data.length, isCompleted: true });
    // Once the first is done, the same chunk again answers the completed upload.
    const late = await putChunk(runtime.app, alice.headers, fileId, 0, data);
    expect(late.statusCode).toBe(200);
    expect(late.json()).toEqual({ fileId, size: data.length, isCompleted: true });
  });

  it('refuses bytes whose SHA-1 differs from the one declared, and starts over from 0', async () => {
    const data = bytes(50_000, 3);
    const created = await createRequest(
      runtime,
      alice,
      metadataOf(data, { fileName: 'hash.mp3', sha1: sha1(bytes(50_000, 4)) }),
    );
    const { fileId } = created.json<RecordingUploadState>();
    const response = await putChunk(runtime.app, alice.headers, fileId, 0, data);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ code: 'UPLOAD_CHECKSUM_MISMATCH' });
    const state = await runtime.app.inject({
      method: 'GET',
      url: `/api/v1/media/${fileId}`,
      headers: alice.headers,
    });
    expect(state.json()).toEqual({ fileId, size: 0, isCompleted: false });
  });

  it('refuses more bytes than declared, keeping what fitted', async () => {
    const data = bytes(10_000, 5);
    const created = await createRequest(runtime, alice, metadataOf(data, { fileName: 'large.mp3' }));
    const { fileId } = created.json<RecordingUploadState>();
    const response = await putChunk(
      runtime.app,
      alice.headers,
      fileId,
      0,
      Buffer.concat([data, bytes(5000, 6)]),
    );
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ code: 'UPLOAD_SIZE_EXCEEDED' });
    const state = await runtime.app.inject({
      method: 'GET',
      url: `/api/v1/media/${fileId}`,
      headers: alice.headers,
    });
    expect(state.json<RecordingUploadState>().size).toBeLessThanOrEqual(10_000);
    expect(state.json<RecordingUploadState>().isCompleted).toBe(false);
  });

  it('answers "Storage limit reached" past the account quota', async () => {
    const carol = await newCaller();
    const first = await createRequest(
      runtime,
      carol,
      metadataOf(bytes(10, 7), { size: 2 * mb, fileName: 'one.mp3' }),
    );
    expect(first.statusCode).toBe(200);
    const second = await createRequest(
      runtime,
      carol,
      metadataOf(bytes(10, 8), { size: 2 * mb, fileName: 'two.mp3' }),
    );
    expect(second.statusCode).toBe(403);
    expect(second.json()).toMatchObject({ code: 'STORAGE_LIMIT_REACHED', message: 'Storage limit reached' });
    // Deleting a file frees its room.
    await runtime.app.inject({
      method: 'DELETE',
      url: `/api/v1/files/third-party/${first.json<RecordingUploadState>().fileId}`,
      headers: carol.headers,
    });
    expect(
      (await createRequest(runtime, carol, metadataOf(bytes(10, 8), { size: 2 * mb, fileName: 'two.mp3' })))
        .statusCode,
    ).toBe(200);
  });

  it('pages the files 10 at a time with pagination.next_page', async () => {
    const dave = await newCaller();
    for (let index = 0; index < 12; index++) {
      await uploadInChunks(runtime.app, dave.headers, bytes(100 + index, 100 + index), {
        fileName: `f${index}.wav`,
        type: 'audio/wav',
        languageCode: 'fr',
      });
    }
    const first = (
      await runtime.app.inject({
        method: 'GET',
        url: '/api/v1/files/third-party?start=0&limit=10',
        headers: dave.headers,
      })
    ).json<FilesPage>();
    expect(first.list).toHaveLength(10);
    expect(first.pagination).toEqual({ next_page: 10, total: 12 });
    expect(first.list[0]?.fileName).toBe('f11.wav');
    const second = (
      await runtime.app.inject({
        method: 'GET',
        url: '/api/v1/files/third-party?start=10&limit=10',
        headers: dave.headers,
      })
    ).json<FilesPage>();
    expect(second.list.map((file) => file.fileName)).toEqual(['f1.wav', 'f0.wav']);
    expect(second.pagination.next_page).toBeNull();
  });

  it('answers 404 to another account on every file route', async () => {
    const data = bytes(2000, 9);
    const state = await uploadInChunks(runtime.app, alice.headers, data, {
      fileName: 'private.mp3',
      type: 'audio/mpeg',
      languageCode: 'en',
      callbackUrl: 'https://example.com/hook',
    });
    const partial = (
      await createRequest(runtime, alice, metadataOf(bytes(3000, 10), { fileName: 'partial.mp3' }))
    ).json<RecordingUploadState>();
    const chunk = multipartBody('theFile', bytes(10, 1));
    const routes: {
      method: 'GET' | 'PUT' | 'POST' | 'DELETE';
      url: string;
      payload?: Buffer;
      headers?: Record<string, string>;
    }[] = [
      { method: 'GET', url: `/api/v1/media/${partial.fileId}` },
      {
        method: 'PUT',
        url: `/api/v1/media/${partial.fileId}`,
        payload: chunk.body,
        headers: { 'content-type': chunk.contentType, 'x-start-byte': '0' },
      },
      { method: 'GET', url: `/api/v1/files/third-party/${state.fileId}` },
      { method: 'GET', url: `/api/v1/files/third-party/${state.fileId}/webhook-attempts` },
      { method: 'POST', url: `/api/v1/files/third-party/${state.fileId}/webhook-resend` },
      { method: 'GET', url: `/api/v1/transcripts/download?fileIds=${state.fileId}&format=text%2Fplain` },
      { method: 'GET', url: `/api/v1/transcripts/jobs/${state.fileId}` },
      { method: 'DELETE', url: `/api/v1/transcripts/jobs/${state.fileId}` },
      { method: 'DELETE', url: `/api/v1/files/third-party/${state.fileId}` },
    ];
    for (const route of routes) {
      const response = await runtime.app.inject({
        method: route.method,
        url: route.url,
        headers: { ...bob.headers, ...route.headers },
        ...(route.payload ? { payload: route.payload } : {}),
      });
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(404);
      expect(response.json<ApiError>().code).toBe('NOT_FOUND');
    }
    const bobsPage = (
      await runtime.app.inject({ method: 'GET', url: '/api/v1/files/third-party', headers: bob.headers })
    ).json<FilesPage>();
    expect(bobsPage.list.map((file) => file.id)).not.toContain(state.fileId);
    // Still there for its owner.
    expect(
      (
        await runtime.app.inject({
          method: 'GET',
          url: `/api/v1/files/third-party/${state.fileId}`,
          headers: alice.headers,
        })
      ).statusCode,
    ).toBe(200);
    // Not finished yet: no transcript to download, no webhook to resend.
    const notReady = await runtime.app.inject({
      method: 'GET',
      url: `/api/v1/transcripts/download?fileIds=${state.fileId}&format=text%2Fplain`,
      headers: alice.headers,
    });
    expect(notReady.statusCode).toBe(409);
    expect(notReady.json()).toMatchObject({ code: 'TRANSCRIPT_NOT_READY' });
    // Without credentials: 401.
    expect((await runtime.app.inject({ method: 'GET', url: '/api/v1/files/third-party' })).statusCode).toBe(
      401,
    );
  });

  it("deletes automatically the files older than the account's deletion period, and nothing else", async () => {
    const erin = await newCaller();
    const upload = (caller: Caller, name: string, seed: number) =>
      uploadInChunks(runtime.app, caller.headers, bytes(700, seed), {
        fileName: name,
        type: 'audio/wav',
        languageCode: 'en',
      });
    const old = await upload(erin, 'old.wav', 50);
    const recent = await upload(erin, 'recent.wav', 51);
    const otherAccountsOld = await upload(alice, 'kept.wav', 52);
    const settings = await runtime.app.inject({
      method: 'PUT',
      url: '/api/v1/settings',
      headers: erin.headers,
      payload: { transcripts: { deletionAfterDays: 7 } },
    });
    expect(settings.statusCode, settings.body).toBe(200);
    await runtime.database.db
      .updateTable('submitted_files')
      .set({ created_at: new Date(Date.now() - 8 * 86_400_000) })
      .where('id', 'in', [old.fileId, otherAccountsOld.fileId])
      .execute();
    const recording = (accountId: string, fileId: string) =>
      path.join(runtime.config.storage.directory, 'recordings', accountId, `${fileId}.media`);
    expect(existsSync(recording(erin.accountId, old.fileId))).toBe(true);

    expect(await runtime.services.files.deleteExpired()).toBe(1);
    const status = async (caller: Caller, fileId: string) =>
      (
        await runtime.app.inject({
          method: 'GET',
          url: `/api/v1/files/third-party/${fileId}`,
          headers: caller.headers,
        })
      ).statusCode;
    expect(await status(erin, old.fileId)).toBe(404);
    expect(existsSync(recording(erin.accountId, old.fileId))).toBe(false);
    expect(await status(erin, recent.fileId)).toBe(200);
    // Alice chose no period: her files are kept, however old.
    expect(await status(alice, otherAccountsOld.fileId)).toBe(200);
    expect(existsSync(recording(alice.accountId, otherAccountsOld.fileId))).toBe(true);
    expect(
      runtime.logs.some((line) =>
        JSON.stringify(line).includes('expired recordings and transcripts deleted'),
      ),
    ).toBe(true);
  });

  it('refuses a recording URL that is not https or points inside our network', async () => {
    for (const [url, code] of [
      ['http://example.com/a.mp3', 'VALIDATION_FAILED'],
      ['https://127.0.0.1/a.mp3', 'URL_NOT_ALLOWED'],
      ['https://169.254.169.254/latest/meta-data', 'URL_NOT_ALLOWED'],
      ['https://[::1]/a.mp3', 'URL_NOT_ALLOWED'],
      ['https://localhost/a.mp3', 'URL_NOT_ALLOWED'],
    ] as const) {
      const response = await runtime.app.inject({
        method: 'POST',
        url: `/api/v1/transcripts/jobs?url=${encodeURIComponent(url)}`,
        headers: alice.headers,
      });
      expect(response.json<ApiError>().code, url).toBe(code);
    }
    const nothing = await runtime.app.inject({
      method: 'POST',
      url: '/api/v1/transcripts/jobs',
      headers: alice.headers,
    });
    expect(nothing.statusCode).toBe(400);
  });
});

describe('an upload interrupted in the middle resumes after a server restart', { timeout: 120_000 }, () => {
  let folder: string;

  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'verbatim-upload-restart-'));
  });

  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  /** The same database and storage folders for every start: a restart of one server. */
  function start(): Promise<TestRuntime> {
    return startTestRuntime({
      adjust: (config) => {
        config.database = { kind: 'pglite', directory: path.join(folder, 'pglite') };
        config.storage = { kind: 'local', directory: path.join(folder, 'files') };
      },
    });
  }

  it('keeps the bytes that arrived before the connection dropped, and completes after the restart', async () => {
    const data = bytes(3 * mb, 11);
    let runtime = await start();
    const account = await createAccount(runtime);
    let headers: Record<string, string> = bearer(await signIn(runtime, account.email));
    const created = await runtime.app.inject({
      method: 'POST',
      url: '/api/v1/media/recordings',
      headers,
      payload: metadataOf(data, { fileName: 'long-meeting.mp3' }),
    });
    const { fileId } = created.json<RecordingUploadState>();
    expect(
      (await putChunk(runtime.app, headers, fileId, 0, data.subarray(0, mb))).json<RecordingUploadState>()
        .size,
    ).toBe(mb);

    // The laptop lid closes in the middle of the second chunk: half of it sent, then the connection drops.
    await runtime.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = runtime.app.server.address() as AddressInfo;
    const chunk = multipartBody('theFile', data.subarray(mb, 2 * mb));
    await new Promise<void>((resolve) => {
      const request = httpRequest({
        host: '127.0.0.1',
        port,
        method: 'PUT',
        path: `/api/v1/media/${fileId}`,
        headers: {
          ...headers,
          'content-type': chunk.contentType,
          'content-length': String(chunk.body.length),
          'x-start-byte': String(mb),
        },
      });
      request.on('error', () => resolve());
      request.write(chunk.body.subarray(0, chunk.body.length / 2), () => {
        setTimeout(() => {
          request.destroy();
          resolve();
        }, 500);
      });
    });
    let held = 0;
    for (let tries = 0; tries < 50; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const state = await runtime.app.inject({ method: 'GET', url: `/api/v1/media/${fileId}`, headers });
      held = state.json<RecordingUploadState>().size;
      if (held > mb) break;
    }
    expect(held).toBeGreaterThan(mb);
    expect(held).toBeLessThan(2 * mb);
    await runtime.stop();

    runtime = await start();
    try {
      headers = bearer(await signIn(runtime, account.email));
      const resumed = await runtime.app.inject({
        method: 'POST',
        url: '/api/v1/media/recordings',
        headers,
        payload: metadataOf(data, { fileName: 'long-meeting.mp3' }),
      });
      expect(resumed.json()).toEqual({ fileId, size: held, isCompleted: false });
      let state = resumed.json<RecordingUploadState>();
      while (!state.isCompleted) {
        const response = await putChunk(
          runtime.app,
          headers,
          fileId,
          state.size,
          data.subarray(state.size, state.size + mb),
        );
        expect(response.statusCode).toBe(200);
        state = response.json<RecordingUploadState>();
      }
      expect(state).toEqual({ fileId, size: data.length, isCompleted: true });
    } finally {
      await runtime.close();
    }
  });
});
