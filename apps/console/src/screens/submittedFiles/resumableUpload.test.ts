import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiRequestError } from '../../api/ApiRequestError';
import '../../test/blobArrayBuffer';
import { fileSha1 } from './fileSha1';
import { type UploadProgress, uploadRecording } from './resumableUpload';
import { fileFingerprint, localUploadResumeStore } from './uploadResumeStore';

const chunkBytes = 1000;
const policy = { chunkBytes, timeoutMs: 5_000 };

function recording(size = 3500, name = 'meeting.wav'): File {
  const bytes = new Uint8Array(size).map((_, index) => (index * 7 + 3) % 251);
  return new File([bytes], name, { type: 'audio/wav', lastModified: 1_700_000_000_000 });
}

/** The reference SHA-1: WebCrypto's one-shot digest of the whole content. */
async function sha1Hex(bytes: Uint8Array<ArrayBuffer> | ArrayBuffer): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-1', bytes);
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

type Fault = 'timeout' | 'network' | { status: number; code: string; retryAfterSeconds?: number };

/**
 * The upload protocol of the server in memory (spec §7): POST /media/recordings finds or creates
 * the placeholder of the same name, size and SHA-1 and answers the bytes held; PUT /media/{id}
 * appends from x-start-byte or answers 409 UPLOAD_OFFSET_MISMATCH with the size held; the upload
 * completes when every byte is there and the SHA-1 matches. `faults` fail the next PUTs in order.
 */
function fakeUploadServer() {
  const files = new Map<string, { name: string; size: number; sha1: string; bytes: number[] }>();
  const faults: Fault[] = [];
  const puts: { fileId: string; startByte: number; length: number }[] = [];
  const creations: unknown[] = [];
  const stateQuestions: string[] = [];
  const state = async (id: string) => {
    const file = files.get(id);
    if (!file) throw new Error(`no file ${id}`);
    const complete =
      file.bytes.length === file.size && (await sha1Hex(Uint8Array.from(file.bytes))) === file.sha1;
    return { fileId: id, size: file.bytes.length, isCompleted: complete };
  };
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    init?.signal?.throwIfAborted();
    const url = input as string;
    if (url === '/api/v1/media/recordings' && init?.method === 'POST') {
      const body = JSON.parse(init.body as string) as { fileName: string; size: number; sha1: string };
      creations.push(body);
      const existing = [...files].find(
        ([, file]) => file.name === body.fileName && file.size === body.size && file.sha1 === body.sha1,
      );
      const id = existing?.[0] ?? `file-${files.size + 1}`;
      if (!existing) files.set(id, { name: body.fileName, size: body.size, sha1: body.sha1, bytes: [] });
      return json(200, await state(id));
    }
    const put = /^\/api\/v1\/media\/([\w-]+)$/.exec(url);
    if (put?.[1] && (init?.method ?? 'GET') === 'GET') {
      stateQuestions.push(put[1]);
      return files.has(put[1])
        ? json(200, await state(put[1]))
        : json(404, { code: 'NOT_FOUND', message: 'no such file' });
    }
    if (put?.[1] && init?.method === 'PUT') {
      const fileId = put[1];
      const startByte = Number((init.headers as Record<string, string>)['x-start-byte']);
      const chunk = (init.body as FormData).get('theFile') as Blob;
      puts.push({ fileId, startByte, length: chunk.size });
      const fault = faults.shift();
      if (fault === 'timeout') {
        return new Promise((_resolve, reject) =>
          init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
        );
      }
      if (fault === 'network') throw new TypeError('Failed to fetch');
      if (fault) return json(fault.status, { message: 'refused', ...fault });
      const file = files.get(fileId);
      if (!file) return json(404, { code: 'NOT_FOUND', message: 'no such file' });
      if (startByte !== file.bytes.length) {
        return json(409, { code: 'UPLOAD_OFFSET_MISMATCH', message: 'offset', size: file.bytes.length });
      }
      file.bytes.push(...new Uint8Array(await chunk.arrayBuffer()));
      return json(200, await state(fileId));
    }
    return json(404, { code: 'ROUTE_NOT_FOUND', message: url });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { files, faults, puts, creations, stateQuestions, fetchMock };
}

const noWait = () => vi.fn((_ms: number) => Promise.resolve());

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('fileSha1', () => {
  it('hashes slice by slice to the SHA-1 of the whole file', async () => {
    const file = recording(9 * 1024 * 1024 + 17);
    const seen: number[] = [];
    const hex = await fileSha1(file, { onProgress: (bytes) => seen.push(bytes) });

    const whole = new Uint8Array(await file.arrayBuffer());
    expect(hex).toBe(await sha1Hex(whole));
    expect(seen).toEqual([4 * 1024 * 1024, 8 * 1024 * 1024, file.size]);
  });
});

describe('uploadRecording', () => {
  it('creates the placeholder with the metadata and SHA-1, then sends the bytes in chunks from the held size', async () => {
    const server = fakeUploadServer();
    const file = recording();
    const progress: UploadProgress[] = [];

    const done = await uploadRecording(
      { file, languageCode: 'en', callbackUrl: 'https://hooks.example.com/t' },
      { policy, wait: noWait(), onProgress: (step) => progress.push(step) },
    );

    expect(done).toEqual({ fileId: 'file-1', size: 3500, isCompleted: true });
    expect(server.creations).toEqual([
      {
        fileName: 'meeting.wav',
        size: 3500,
        type: 'audio/wav',
        languageCode: 'en',
        callbackUrl: 'https://hooks.example.com/t',
        sha1: await sha1Hex(await file.arrayBuffer()),
      },
    ]);
    expect(server.puts).toEqual([
      { fileId: 'file-1', startByte: 0, length: 1000 },
      { fileId: 'file-1', startByte: 1000, length: 1000 },
      { fileId: 'file-1', startByte: 2000, length: 1000 },
      { fileId: 'file-1', startByte: 3000, length: 500 },
    ]);
    expect(progress.filter((step) => step.phase === 'uploading').map((step) => step.doneBytes)).toEqual([
      0, 1000, 2000, 3000, 3500,
    ]);
    expect(progress.at(-1)).toEqual({ phase: 'uploading', doneBytes: 3500, totalBytes: 3500 });
  });

  it('leaves the webhook URL out when there is none', async () => {
    const server = fakeUploadServer();
    await uploadRecording({ file: recording(10), languageCode: 'fr' }, { policy, wait: noWait() });
    expect(server.creations[0]).not.toHaveProperty('callbackUrl');
  });

  it('retries a failed chunk 3 times, 500 ms later the first time and twice as late each next time', async () => {
    const server = fakeUploadServer();
    server.faults.push({ status: 503, code: 'INTERNAL_ERROR' }, 'network', {
      status: 500,
      code: 'INTERNAL_ERROR',
    });
    const wait = noWait();

    const done = await uploadRecording({ file: recording(1500), languageCode: 'en' }, { policy, wait });

    expect(done.isCompleted).toBe(true);
    expect(wait.mock.calls.map(([ms]) => ms)).toEqual([500, 1000, 2000]);
    expect(server.puts.map((put) => put.startByte)).toEqual([0, 0, 0, 0, 1000]);
  });

  it('gives up after the third retry with the last failure', async () => {
    const server = fakeUploadServer();
    server.faults.push(...Array.from({ length: 4 }, () => ({ status: 500, code: 'INTERNAL_ERROR' })));
    const wait = noWait();

    const failure = await uploadRecording(
      { file: recording(1500), languageCode: 'en' },
      { policy, wait },
    ).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(ApiRequestError);
    expect((failure as ApiRequestError).status).toBe(500);
    expect(wait.mock.calls.map(([ms]) => ms)).toEqual([500, 1000, 2000]);
    expect(server.puts).toHaveLength(4);
  });

  it('rides out a server restart: no answer, then 503 while it starts, retried past 3 times at most 4 s apart', async () => {
    const server = fakeUploadServer();
    server.faults.push(
      ...Array.from({ length: 6 }, (): Fault => 'network'),
      { status: 503, code: 'NOT_READY' },
      { status: 502, code: 'INTERNAL_ERROR' },
    );
    const wait = noWait();

    const done = await uploadRecording({ file: recording(1500), languageCode: 'en' }, { policy, wait });

    expect(done.isCompleted).toBe(true);
    expect(wait.mock.calls.map(([ms]) => ms)).toEqual([500, 1000, 2000, 4000, 4000, 4000, 4000, 4000]);
    expect(server.puts.map((put) => put.startByte)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 1000]);
  });

  it('gives up on a server that stays away once a minute was spent waiting for it', async () => {
    const server = fakeUploadServer();
    server.faults.push(...Array.from({ length: 30 }, (): Fault => 'network'));
    const wait = noWait();

    const failure = await uploadRecording(
      { file: recording(1500), languageCode: 'en' },
      { policy, wait },
    ).catch((error: unknown) => error);

    expect((failure as ApiRequestError).code).toBe('NETWORK_ERROR');
    const waited = wait.mock.calls.map(([ms]) => ms);
    expect(waited).toEqual([500, 1000, 2000, ...Array.from({ length: 14 }, () => 4000)]);
    expect(waited.reduce((sum, ms) => sum + ms, 0)).toBe(59_500);
    expect(server.puts).toHaveLength(18);
  });

  it("waits the Retry-After of UPLOAD_IN_PROGRESS (the killed server's request still holds the upload), then goes on", async () => {
    const server = fakeUploadServer();
    server.faults.push('network', { status: 409, code: 'UPLOAD_IN_PROGRESS', retryAfterSeconds: 12 });
    const wait = noWait();

    const done = await uploadRecording({ file: recording(1500), languageCode: 'en' }, { policy, wait });

    expect(done.isCompleted).toBe(true);
    expect(wait.mock.calls.map(([ms]) => ms)).toEqual([500, 12_000]);
    expect(server.puts.map((put) => put.startByte)).toEqual([0, 0, 0, 1000]);
  });

  it('abandons a chunk that does not answer within its timeout and sends it again', async () => {
    const server = fakeUploadServer();
    server.faults.push('timeout');
    const wait = noWait();
    const started = Date.now();

    const done = await uploadRecording(
      { file: recording(1500), languageCode: 'en' },
      { policy: { ...policy, timeoutMs: 50 }, wait },
    );

    expect(done.isCompleted).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(wait.mock.calls.map(([ms]) => ms)).toEqual([500]);
    expect(server.puts.map((put) => put.startByte)).toEqual([0, 0, 1000]);
  });

  it('uses a 60 s timeout per chunk by default', async () => {
    const { uploadChunkPolicy } = await import('@verbatim/contracts');
    expect(uploadChunkPolicy).toMatchObject({ timeoutMs: 60_000, retries: 3, firstRetryDelayMs: 500 });
  });

  it('does not retry a refusal: the server said no, a second try says the same', async () => {
    const server = fakeUploadServer();
    server.faults.push({ status: 413, code: 'UPLOAD_SIZE_EXCEEDED' });
    const wait = noWait();

    const failure = await uploadRecording(
      { file: recording(1500), languageCode: 'en' },
      { policy, wait },
    ).catch((error: unknown) => error);

    expect((failure as ApiRequestError).code).toBe('UPLOAD_SIZE_EXCEEDED');
    expect(wait).not.toHaveBeenCalled();
    expect(server.puts).toHaveLength(1);
  });

  it('continues from the size the server holds when a chunk was sent at the wrong offset', async () => {
    const server = fakeUploadServer();
    const file = recording(3000);
    // The answer to the first chunk was lost after the server had stored it: the client sends it
    // again at 0, is told the server stands at 1000, and goes on from there without waiting.
    let dropNextAnswer = true;
    const serverFetch = server.fetchMock.getMockImplementation();
    server.fetchMock.mockImplementation(async (input, init) => {
      const answer = await serverFetch!(input, init);
      if (init?.method === 'PUT' && dropNextAnswer) {
        dropNextAnswer = false;
        throw new TypeError('Failed to fetch');
      }
      return answer;
    });
    const wait = noWait();

    const done = await uploadRecording({ file, languageCode: 'en' }, { policy, wait });

    expect(done).toEqual({ fileId: 'file-1', size: 3000, isCompleted: true });
    expect(server.puts.map((put) => put.startByte)).toEqual([0, 0, 1000, 2000]);
    // The server's count, asked once the offset was refused.
    expect(server.stateQuestions).toEqual(['file-1']);
    expect(wait.mock.calls.map(([ms]) => ms)).toEqual([500]);
  });

  it('pauses when aborted, without retrying, and resumes after a reload from the bytes the server holds', async () => {
    const server = fakeUploadServer();
    const file = recording(5000);
    const pause = new AbortController();
    let hashes = 0;
    const onProgress = (step: UploadProgress) => {
      if (step.phase === 'hashing' && step.doneBytes === file.size) hashes += 1;
      if (step.phase === 'uploading' && step.doneBytes === 2000)
        pause.abort(new DOMException('paused', 'AbortError'));
    };
    const wait = noWait();

    const paused = await uploadRecording(
      { file, languageCode: 'en' },
      { policy, wait, onProgress, signal: pause.signal, store: localUploadResumeStore() },
    ).catch((error: unknown) => error);

    expect((paused as DOMException).name).toBe('AbortError');
    expect(wait).not.toHaveBeenCalled();
    expect(server.files.get('file-1')?.bytes).toHaveLength(2000);
    expect(localUploadResumeStore().get(fileFingerprint(file))).toEqual({
      sha1: await sha1Hex(await file.arrayBuffer()),
      fileId: 'file-1',
      target: '["en",null]',
    });

    // A reloaded page: a new store over the same localStorage, the same file picked again.
    const sameFileAgain = new File([await file.arrayBuffer()], file.name, {
      type: file.type,
      lastModified: file.lastModified,
    });
    const progress: UploadProgress[] = [];
    const done = await uploadRecording(
      { file: sameFileAgain, languageCode: 'en' },
      { policy, wait, store: localUploadResumeStore(), onProgress: (step) => progress.push(step) },
    );

    expect(done).toEqual({ fileId: 'file-1', size: 5000, isCompleted: true });
    expect(server.puts.map((put) => put.startByte)).toEqual([0, 1000, 2000, 3000, 4000]);
    // The remembered placeholder was asked where it stands; no second one was created.
    expect(server.stateQuestions).toEqual(['file-1']);
    expect(server.creations).toHaveLength(1);
    // The SHA-1 was remembered, not computed again; the progress starts where the server stood.
    expect(progress[0]).toEqual({ phase: 'hashing', doneBytes: 5000, totalBytes: 5000 });
    expect(progress.find((step) => step.phase === 'uploading')?.doneBytes).toBe(2000);
    expect(hashes).toBe(1);
    expect(localUploadResumeStore().get(fileFingerprint(file))).toBeUndefined();
  });

  it('creates the placeholder again when the remembered one is gone, and asks the metadata when the language changed', async () => {
    const server = fakeUploadServer();
    const file = recording(1500);
    const store = localUploadResumeStore();
    const sha1 = await sha1Hex(await file.arrayBuffer());
    store.set(fileFingerprint(file), { sha1, fileId: 'file-77', target: '["en",null]' });

    const done = await uploadRecording({ file, languageCode: 'en' }, { policy, wait: noWait(), store });
    expect(done).toEqual({ fileId: 'file-1', size: 1500, isCompleted: true });
    expect(server.stateQuestions).toEqual(['file-77']);
    expect(server.creations).toHaveLength(1);

    store.set(fileFingerprint(file), { sha1, fileId: 'file-1', target: '["en",null]' });
    await uploadRecording({ file, languageCode: 'fr' }, { policy, wait: noWait(), store });
    expect(server.stateQuestions).toEqual(['file-77']);
    expect(server.creations).toHaveLength(2);
  });

  it('forgets the SHA-1 when the server finds the bytes do not match it', async () => {
    const server = fakeUploadServer();
    server.faults.push({ status: 422, code: 'UPLOAD_CHECKSUM_MISMATCH' });
    const file = recording(500);
    const store = localUploadResumeStore();

    await expect(
      uploadRecording({ file, languageCode: 'en' }, { policy, wait: noWait(), store }),
    ).rejects.toMatchObject({ code: 'UPLOAD_CHECKSUM_MISMATCH' });
    expect(store.get(fileFingerprint(file))).toBeUndefined();
  });

  it('declares an upload stuck when the server never moves forward', async () => {
    const server = fakeUploadServer();
    const file = recording(1000);
    server.fetchMock.mockImplementation((input, init) =>
      Promise.resolve(
        (input as string).endsWith('/recordings') || init?.method !== 'PUT'
          ? json(200, { fileId: 'file-9', size: 0, isCompleted: false })
          : json(409, { code: 'UPLOAD_OFFSET_MISMATCH', message: 'offset', size: 0 }),
      ),
    );

    await expect(
      uploadRecording({ file, languageCode: 'en' }, { policy, wait: noWait() }),
    ).rejects.toMatchObject({ code: 'UNEXPECTED_RESPONSE' });
    // The placeholder, then three chunks refused, each followed by GET /media/{fileId}.
    expect(server.fetchMock).toHaveBeenCalledTimes(7);
  });
});
