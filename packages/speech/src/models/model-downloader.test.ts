import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname as hostnameOf, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isModelDownloadError, type ModelDownloadError } from './model-download-error.js';
import { downloadModel, removeModel } from './model-downloader.js';
import { formatBytes } from './format-bytes.js';

const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const modelFile = path.resolve(repoRoot, '../shared/models/ggml-tiny.en-q8_0.bin');
// From ../shared/models/README.md.
const modelBytes = 43550778;
const modelSha256 = '66955b15d73b71cc7306d7d735f8439bdb78e208b62422ff9f101f7b880a4441';

type Mode = 'normal' | 'drop-at-40%' | 'ignore-range' | 'garbage' | 'stall';

/**
 * A local stand-in for the model repository: `/models/ggml-tiny.en-q8_0.bin` with Range support,
 * `/redirect/…` answering 302 to `/models/…` (as Hugging Face sends downloads to its CDN), and 404
 * for anything else. `mode` makes it misbehave the ways real networks do.
 */
async function startModelServer() {
  const requests: Array<{ url: string; range: string | undefined }> = [];
  const hanging = new Set<ServerResponse>();
  const state = { mode: 'normal' as Mode };
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    requests.push({ url: request.url ?? '', range: request.headers.range });
    const url = request.url ?? '';
    if (url.startsWith('/redirect/')) {
      response.writeHead(302, { location: url.replace('/redirect/', '/models/') }).end();
      return;
    }
    if (url !== '/models/ggml-tiny.en-q8_0.bin') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Entry not found');
      return;
    }
    if (state.mode === 'garbage') {
      response.writeHead(200, { 'content-length': String(modelBytes) }).end(randomBytes(modelBytes));
      return;
    }
    const range = /^bytes=(\d+)-$/.exec(request.headers.range ?? '');
    const start = range && state.mode !== 'ignore-range' ? Number(range[1]) : 0;
    if (start >= modelBytes) {
      response.writeHead(416, { 'content-range': `bytes */${modelBytes}` }).end();
      return;
    }
    const headers = { 'content-length': String(modelBytes - start), 'accept-ranges': 'bytes' };
    if (start > 0)
      response.writeHead(206, {
        ...headers,
        'content-range': `bytes ${start}-${modelBytes - 1}/${modelBytes}`,
      });
    else response.writeHead(200, headers);
    if (state.mode === 'stall') {
      response.write(Buffer.alloc(1_000_000));
      hanging.add(response);
      return;
    }
    const end = state.mode === 'drop-at-40%' ? Math.floor(modelBytes * 0.4) : modelBytes;
    const body = createReadStream(modelFile, { start, end: end - 1 });
    body.pipe(response, { end: false });
    // The drop closes the connection once the bytes sent so far are flushed (destroying it at
    // once would discard what the socket still buffers, and the test would race the kernel).
    body.on('end', () => (end === modelBytes ? response.end() : response.socket?.end()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    state,
    requests,
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const response of hanging) response.socket?.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function sha256(filePath: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(filePath)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function failure(promise: Promise<unknown>): Promise<ModelDownloadError> {
  try {
    await promise;
  } catch (error) {
    if (isModelDownloadError(error)) return error;
    throw error;
  }
  throw new Error('the download succeeded');
}

describe('downloadModel', () => {
  let server: Awaited<ReturnType<typeof startModelServer>>;
  let modelsDir: string;
  const name = 'tiny.en-q8_0';
  const finalPath = () => path.join(modelsDir, 'ggml-tiny.en-q8_0.bin');
  const partPath = () => `${finalPath()}.part`;

  beforeAll(async () => {
    server = await startModelServer();
  });
  afterAll(async () => {
    await server.close();
  });
  beforeEach(async () => {
    modelsDir = path.join(await mkdtemp(path.join(tmpdir(), 'verbatim-download-')), 'models');
    server.state.mode = 'normal';
    server.requests.length = 0;
  });
  afterEach(async () => {
    await rm(path.dirname(modelsDir), { recursive: true, force: true });
  });

  it('downloads a model into a new folder, checks it and moves it into place', async () => {
    const progress: Array<[number, number | undefined]> = [];
    const started = performance.now();
    const result = await downloadModel({
      name,
      baseUrl: `${server.url}/models/`,
      modelsDir,
      onProgress: (received, total) => progress.push([received, total]),
    });
    console.log(
      `downloaded and checked 43.6 MB from 127.0.0.1 in ${(performance.now() - started).toFixed(0)} ms`,
    );
    expect(result).toMatchObject({
      name,
      path: finalPath(),
      bytes: modelBytes,
      resumedFrom: 0,
      alreadyInstalled: false,
    });
    expect(result.info).toMatchObject({ modelType: 'tiny', multilingual: false });
    expect(progress.at(-1)).toEqual([modelBytes, modelBytes]);
    expect(await sha256(finalPath())).toBe(modelSha256);
    expect(await readdir(modelsDir)).toEqual(['ggml-tiny.en-q8_0.bin']);

    // Asking again finds it installed without fetching anything.
    const again = await downloadModel({ name, baseUrl: server.url + '/models', modelsDir });
    expect(again.alreadyInstalled).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it('keeps the part when the connection drops, then resumes it with a Range request', async () => {
    server.state.mode = 'drop-at-40%';
    const dropped = await failure(downloadModel({ name, baseUrl: `${server.url}/models`, modelsDir }));
    expect(dropped.reason).toBe('INTERRUPTED');
    expect(dropped.resumable).toBe(true);
    expect(dropped.message).toMatch(
      /^the connection to 127\.0\.0\.1:\d+ broke after 1\d\.\d MB of 43\.6 MB .*run the download again to resume$/,
    );
    // The server sent exactly 40 %. fetch drops the chunks it had queued but not yet handed over
    // when the connection breaks (a busy machine leaves some), so the part holds what the
    // downloader was given, at most 40 %; the resume below proves nothing it held was wrong.
    const held = (await stat(partPath())).size;
    expect(held).toBeGreaterThan(Math.floor(modelBytes * 0.3));
    expect(held).toBeLessThanOrEqual(Math.floor(modelBytes * 0.4));
    expect(dropped.message).toContain(`broke after ${formatBytes(held)} of`);
    expect(await readdir(modelsDir)).toEqual(['ggml-tiny.en-q8_0.bin.part']);

    server.state.mode = 'normal';
    const starts: unknown[] = [];
    const result = await downloadModel({
      name,
      baseUrl: `${server.url}/models`,
      modelsDir,
      onStart: (start) => starts.push(start),
    });
    expect(result.resumedFrom).toBe(held);
    expect(starts).toEqual([
      { url: `${server.url}/models/ggml-tiny.en-q8_0.bin`, resumingFrom: held, total: modelBytes },
    ]);
    expect(server.requests.at(-1)?.range).toBe(`bytes=${held}-`);
    expect(await sha256(finalPath())).toBe(modelSha256);
    expect(await readdir(modelsDir)).toEqual(['ggml-tiny.en-q8_0.bin']);
  });

  it('starts over when the server ignores the Range request', async () => {
    // A stale part made of the wrong bytes: a server answering 200 replaces it entirely.
    await writeFile(
      path.join(await mkdirp(modelsDir), 'ggml-tiny.en-q8_0.bin.part'),
      Buffer.alloc(5_000_000, 1),
    );
    server.state.mode = 'ignore-range';
    const result = await downloadModel({ name, baseUrl: `${server.url}/models`, modelsDir });
    expect(result.resumedFrom).toBe(0);
    expect(server.requests.at(-1)?.range).toBe('bytes=5000000-');
    expect(await sha256(finalPath())).toBe(modelSha256);
  });

  it('installs a complete part the server has nothing more for (416)', async () => {
    await copyFile(modelFile, path.join(await mkdirp(modelsDir), 'ggml-tiny.en-q8_0.bin.part'));
    const result = await downloadModel({ name, baseUrl: `${server.url}/models`, modelsDir });
    expect(result.resumedFrom).toBe(modelBytes);
    expect(server.requests.map((request) => request.range)).toEqual([`bytes=${modelBytes}-`]);
    expect(await readdir(modelsDir)).toEqual(['ggml-tiny.en-q8_0.bin']);
  });

  it('refuses and deletes a download that is not a model', async () => {
    server.state.mode = 'garbage';
    const refused = await failure(downloadModel({ name, baseUrl: `${server.url}/models`, modelsDir }));
    expect(refused.reason).toBe('INVALID_MODEL');
    expect(refused.message).toBe(
      `the file downloaded from ${server.url}/models/ggml-tiny.en-q8_0.bin is not a valid whisper.cpp model (not a whisper.cpp model (wrong magic)); it was deleted`,
    );
    expect(await readdir(modelsDir)).toEqual([]);
  });

  it('says clearly when the repository has no such model', async () => {
    const missing = await failure(
      downloadModel({ name: 'base-q9', baseUrl: `${server.url}/models`, modelsDir }),
    );
    expect(missing.reason).toBe('NOT_FOUND');
    expect(missing.message).toBe(`no model named base-q9 at ${server.url}/models/ggml-base-q9.bin`);
    expect(await readdir(modelsDir)).toEqual([]);
    const unsafe = await failure(downloadModel({ name: '../etc', baseUrl: server.url, modelsDir }));
    expect(unsafe.reason).toBe('INVALID_NAME');
  });

  it('follows redirects to where the file really is', async () => {
    const result = await downloadModel({ name, baseUrl: `${server.url}/redirect`, modelsDir });
    expect(result.bytes).toBe(modelBytes);
    expect(server.requests.map((request) => request.url)).toEqual([
      '/redirect/ggml-tiny.en-q8_0.bin',
      '/models/ggml-tiny.en-q8_0.bin',
    ]);
  });

  it('gives up on a stalled transfer, keeping the part, and on an unreachable server', async () => {
    server.state.mode = 'stall';
    const stalled = await failure(
      downloadModel({ name, baseUrl: `${server.url}/models`, modelsDir, stallTimeoutMs: 400 }),
    );
    expect(stalled.reason).toBe('STALLED');
    expect(stalled.message).toMatch(
      /^no data from 127\.0\.0\.1:\d+ for 0\.4 s; the partial download is kept/,
    );
    expect((await stat(partPath())).size).toBe(1_000_000);

    const port = refusedPort;
    const unreachable = await failure(
      downloadModel({ name, baseUrl: `http://127.0.0.1:${port}/models`, modelsDir }),
    );
    expect(unreachable.reason).toBe('UNREACHABLE');
    expect(unreachable.message).toBe(`cannot reach 127.0.0.1:${port} (ECONNREFUSED)`);
  });

  it('can be cancelled, keeping the part', async () => {
    const controller = new AbortController();
    const cancelled = await failure(
      downloadModel({
        name,
        baseUrl: `${server.url}/models`,
        modelsDir,
        signal: controller.signal,
        onProgress: (received) => received > 10_000_000 && controller.abort(),
      }),
    );
    expect(cancelled.reason).toBe('CANCELLED');
    expect(cancelled.resumable).toBe(true);
    expect((await stat(partPath())).size).toBeGreaterThan(10_000_000);
  });

  it('never runs two downloads of one model at once, in one process or across processes', async () => {
    const first = downloadModel({ name, baseUrl: `${server.url}/models`, modelsDir });
    const second = await failure(downloadModel({ name, baseUrl: `${server.url}/models`, modelsDir }));
    expect(second.reason).toBe('BUSY');
    expect(second.message).toBe(
      'ggml-tiny.en-q8_0.bin is already being downloaded or removed by this process',
    );
    await first;

    // A lock held by another live process (our parent) refuses; one left by a dead process is taken over.
    await rm(finalPath());
    const lockPath = path.join(modelsDir, 'ggml-tiny.en-q8_0.bin.lock');
    const hostname = hostnameOf();
    await writeFile(
      lockPath,
      JSON.stringify({ pid: process.ppid, hostname, since: new Date().toISOString() }),
    );
    const locked = await failure(downloadModel({ name, baseUrl: `${server.url}/models`, modelsDir }));
    expect(locked.reason).toBe('BUSY');
    expect(locked.message).toContain(
      `being downloaded by another process (pid ${process.ppid} on ${hostname})`,
    );
    await writeFile(
      lockPath,
      JSON.stringify({ pid: 2 ** 22 + 17, hostname, since: new Date().toISOString() }),
    );
    expect((await downloadModel({ name, baseUrl: `${server.url}/models`, modelsDir })).bytes).toBe(
      modelBytes,
    );
    expect(await readdir(modelsDir)).toEqual(['ggml-tiny.en-q8_0.bin']);
  });

  it('removes a model and its partial download', async () => {
    await mkdirp(modelsDir);
    await copyFile(modelFile, finalPath());
    await writeFile(partPath(), 'part');
    expect(await removeModel(modelsDir, name)).toBe(true);
    expect(await readdir(modelsDir)).toEqual([]);
    expect(await removeModel(modelsDir, name)).toBe(false);
  });
});

async function mkdirp(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  return dir;
}

/**
 * A port nothing listens on: 2, below the range the system hands out (a port taken from it and let
 * go goes to the next test file that starts a server, which then answers in its place), and not one
 * of the ports fetch refuses to try (1 is).
 */
const refusedPort = 2;
