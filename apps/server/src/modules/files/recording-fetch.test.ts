import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { promisify } from 'node:util';
import type { ApiError, TranscriptJob } from '@verbatim/contracts';
import { readManifest, sharedModelsDir, wordErrorRate } from '@verbatim/speech/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../errors/app-error.js';
import { HttpCustomer } from '../../test-support/files.js';
import { serverEnv, startServerProcess, type ServerProcess } from '../../test-support/server-process.js';
import { createAccount, defaultPassword } from '../../test-support/sign-in.js';
import { startTestRuntime } from '../../test-support/test-runtime.js';
import { apiPollMs, waitFor } from '../../test-support/wait.js';
import { fetchRecording, type RecordingFetchOptions } from './recording-fetch.js';

const clip = readManifest().find((entry) => entry.path === 'en/ls-dev-clean-3752-4944-0000.flac');
/** The most a fetched recording may weigh here (SPEECH_MAX_UPLOAD_BYTES), above the clip's size. */
const limitBytes = 1024 * 1024;
/** What the oversized answers would send if read to their end. */
const oversizedBytes = 64 * 1024 * 1024;

/** A certificate authority and a server certificate it signed (127.0.0.1, localhost), made by openssl. */
async function makeCertificates(folder: string): Promise<{ ca: string; key: string; cert: string }> {
  const run = promisify(execFile);
  const file = (name: string) => path.join(folder, name);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  await run('openssl', [
    'req',
    '-x509',
    ...ec,
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.pem'),
    '-days',
    '2',
    '-subj',
    '/CN=Verbatim test CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign',
  ]);
  await run('openssl', [
    'req',
    ...ec,
    '-keyout',
    file('server.key'),
    '-out',
    file('server.csr'),
    '-subj',
    '/CN=localhost',
  ]);
  await writeFile(
    file('server.ext'),
    'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n',
  );
  await run('openssl', [
    'x509',
    '-req',
    '-in',
    file('server.csr'),
    '-CA',
    file('ca.pem'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-out',
    file('server.pem'),
    '-days',
    '2',
    '-extfile',
    file('server.ext'),
  ]);
  const [ca, key, cert] = await Promise.all(
    ['ca.pem', 'server.key', 'server.pem'].map((name) => readFile(file(name), 'utf8')),
  );
  return { ca: ca ?? '', key: key ?? '', cert: cert ?? '' };
}

/** How an oversized answer ended: bytes written before the client closed, or all of them. */
interface Oversized {
  sent: number;
  finished: boolean;
  closed: boolean;
}

/** The recording host: an HTTPS server with a real recording, errors, redirects and oversized answers. */
async function startRecordingHost(
  certificates: { key: string; cert: string },
  recording: Buffer,
): Promise<{ server: Server; origin: string; oversized: Map<string, Oversized>; requests: string[] }> {
  const oversized = new Map<string, Oversized>();
  const requests: string[] = [];
  let origin = '';
  const server = createServer(certificates, (request, response) => {
    const url = request.url ?? '/';
    requests.push(url);
    const redirect = (location: string) =>
      response.writeHead(302, { location, 'content-type': 'text/plain' }).end('moved');
    switch (url) {
      case '/recordings/captain.flac':
        response.writeHead(200, { 'content-type': 'audio/flac', 'content-length': recording.length });
        response.end(recording);
        return;
      case '/again/captain.flac':
        redirect('/recordings/captain.flac');
        return;
      case '/to-http':
        redirect(`${origin.replace('https:', 'http:')}/recordings/captain.flac`);
        return;
      case '/to-metadata':
        redirect('https://169.254.169.254/latest/meta-data/');
        return;
      case '/to-private':
        redirect('https://10.20.30.40/recordings/captain.flac');
        return;
      case '/to-other-loopback':
        redirect(`https://127.0.0.2:${new URL(origin).port}/recordings/captain.flac`);
        return;
      case '/loop':
        redirect('/loop');
        return;
      case '/declared-large.flac':
      case '/undeclared-large.flac': {
        const state: Oversized = { sent: 0, finished: false, closed: false };
        oversized.set(url, state);
        response.writeHead(200, {
          'content-type': 'audio/flac',
          ...(url.startsWith('/declared') ? { 'content-length': oversizedBytes } : {}),
        });
        response.on('finish', () => (state.finished = true));
        response.on('close', () => (state.closed = true));
        const chunk = Buffer.alloc(64 * 1024, 7);
        const write = () => {
          while (state.sent < oversizedBytes && !response.destroyed) {
            state.sent += chunk.length;
            if (!response.write(chunk)) return void response.once('drain', write);
          }
          if (!response.destroyed) response.end();
        };
        write();
        return;
      }
      default:
        response.writeHead(404, { 'content-type': 'text/plain' }).end('no such recording');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, origin, oversized, requests };
}

describe('fetching a recording from an https URL (POST /transcripts/jobs?url=)', { timeout: 300_000 }, () => {
  let folder: string;
  let ca: string;
  let host: Awaited<ReturnType<typeof startRecordingHost>>;
  let server: ServerProcess | undefined;
  let client: HttpCustomer;
  let audio: Buffer;

  beforeAll(async () => {
    if (!clip) throw new Error('test clip missing from the manifest');
    folder = await mkdtemp(path.join(tmpdir(), 'verbatim-fetch-'));
    const certificates = await makeCertificates(folder);
    ca = certificates.ca;
    audio = await readFile(clip.absolutePath);
    host = await startRecordingHost(certificates, audio);

    const setup = await startTestRuntime({
      adjust: (config) => {
        config.database = { kind: 'pglite', directory: path.join(folder, 'pglite') };
      },
    });
    const account = await createAccount(setup);
    await setup.close();
    // The server trusts the test CA the way an operator makes Node trust one: NODE_EXTRA_CA_CERTS.
    server = await startServerProcess(
      serverEnv(folder, {
        SPEECH_MODELS_DIR: sharedModelsDir,
        SPEECH_MODEL_EN: 'tiny.en-q8_0',
        SPEECH_WORKERS: '1',
        SPEECH_THREADS: '2',
        SPEECH_MAX_UPLOAD_BYTES: String(limitBytes),
        WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: 'true',
        NODE_EXTRA_CA_CERTS: path.join(folder, 'ca.pem'),
      }),
    );
    client = await HttpCustomer.signIn(server.baseUrl, account.email, defaultPassword);
  }, 180_000);

  afterAll(async () => {
    await server?.stop().catch(() => undefined);
    await new Promise((resolve) => {
      host.server.closeAllConnections();
      host.server.close(resolve);
    });
    await rm(folder, { recursive: true, force: true });
  });

  function createJob(url: string) {
    return client.request('POST', `/transcripts/jobs?language=en&url=${encodeURIComponent(url)}`);
  }

  function refusal(answer: { status: number; text: string }): { status: number } & ApiError {
    return { status: answer.status, ...(JSON.parse(answer.text) as ApiError) };
  }

  it('creates the job from the URL and transcribes the fetched bytes to the reference text', async () => {
    if (!clip) throw new Error('test clip missing from the manifest');
    const created = await createJob(`${host.origin}/recordings/captain.flac`);
    expect(created.status).toBe(202);
    const job = JSON.parse(created.text) as TranscriptJob;
    expect(job).toMatchObject({ fileName: 'captain.flac', size: audio.length, isCompleted: true });

    let current = job;
    await waitFor(
      async () => {
        current = await client.json<TranscriptJob>('GET', `/transcripts/jobs/${job.id}`);
        expect(current.transcriptStatus).not.toBe('processing_failed');
        return current.transcriptStatus === 'done';
      },
      'the transcription',
      240_000,
      apiPollMs,
    );
    expect(current.duration).toBeCloseTo(clip.durationSeconds, 0);
    expect(wordErrorRate(clip.referenceText, current.transcript?.text ?? '', 'en').wer).toBeLessThan(0.15);

    // Followed through a redirect, the same bytes arrive again: the same content, refused as a duplicate.
    const again = refusal(await createJob(`${host.origin}/again/captain.flac`));
    expect(again).toMatchObject({ status: 409, code: 'FILE_ALREADY_EXISTS' });
    expect(host.requests.filter((url) => url === '/recordings/captain.flac')).toHaveLength(2);
  });

  it('refuses a URL that is not https, before fetching anything', async () => {
    const before = host.requests.length;
    const answer = refusal(
      await createJob(`http://127.0.0.1:${new URL(host.origin).port}/recordings/captain.flac`),
    );
    expect(answer).toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
      details: [{ location: 'query', path: ['url'], message: 'Invalid url' }],
    });
    expect(host.requests.length).toBe(before);
  });

  it('answers a clear reason for a 404, a redirect to http and a redirect loop', async () => {
    expect(refusal(await createJob(`${host.origin}/recordings/gone.flac`))).toMatchObject({
      status: 422,
      code: 'URL_FETCH_FAILED',
      message: 'Fetching the recording answered HTTP 404.',
    });
    expect(refusal(await createJob(`${host.origin}/to-http`))).toMatchObject({
      status: 400,
      code: 'URL_NOT_ALLOWED',
      message: 'The recording URL must be https.',
    });
    expect(refusal(await createJob(`${host.origin}/loop`))).toMatchObject({
      status: 422,
      code: 'URL_FETCH_FAILED',
      message: 'The recording URL redirects too often.',
    });
  });

  it('stops a body larger than the limit, declared or not, without reading it to its end', async () => {
    for (const name of ['/declared-large.flac', '/undeclared-large.flac']) {
      expect(refusal(await createJob(`${host.origin}${name}`)), name).toMatchObject({
        status: 413,
        code: 'PAYLOAD_TOO_LARGE',
      });
      await waitFor(() => host.oversized.get(name)?.closed === true, `the server's side of ${name} to close`);
      const state = host.oversized.get(name);
      expect(state?.finished, name).toBe(false);
      expect(state?.sent ?? 0, name).toBeLessThan(oversizedBytes / 4);
    }
    // Nothing kept from the refused fetches: only the transcribed recording is listed.
    const listed = await client.json<{ list: { fileName: string }[] }>(
      'GET',
      '/files/third-party?start=0&limit=10',
    );
    expect(listed.list.map((file) => file.fileName)).toEqual(['captain.flac']);
  });

  describe('in this process (fetchRecording itself)', () => {
    const options = (allowPrivateAddresses: RecordingFetchOptions['allowPrivateAddresses']) => ({
      directory: path.join(folder, 'fetched'),
      maxBytes: limitBytes,
      allowPrivateAddresses,
      timeoutMs: 5_000,
    });

    async function failure(promise: Promise<unknown>): Promise<AppError> {
      const error = await promise.then(
        () => new Error('the fetch succeeded'),
        (caught: unknown) => caught,
      );
      if (!(error instanceof AppError)) throw error;
      return error;
    }

    it('does not trust the certificate without the CA being configured, then fetches once it is', async () => {
      const untrusted = await failure(
        fetchRecording(`${host.origin}/recordings/captain.flac`, options(true)),
      );
      expect(untrusted.code).toBe('URL_FETCH_FAILED');
      expect(untrusted.message).toMatch(/certificate/i);

      // This process's trusted CAs gain the test CA (what NODE_EXTRA_CA_CERTS does for the server).
      tls.setDefaultCACertificates([...tls.getCACertificates('default'), ca]);
      const { audio: fetched, mediaType } = await fetchRecording(
        `${host.origin}/recordings/captain.flac`,
        options(['127.0.0.1']),
      );
      try {
        expect(mediaType).toBe('audio/flac');
        expect((await readFile(fetched.path)).equals(audio)).toBe(true);
      } finally {
        await fetched.remove();
      }
    });

    it('refuses a redirect to a private, loopback or metadata address the first one did not allow', async () => {
      for (const [name, address] of [
        ['/to-metadata', '169.254.169.254'],
        ['/to-private', '10.20.30.40'],
        ['/to-other-loopback', '127.0.0.2'],
      ] as const) {
        const refused = await failure(fetchRecording(`${host.origin}${name}`, options(['127.0.0.1'])));
        expect(refused.code, name).toBe('URL_NOT_ALLOWED');
        expect(refused.message, name).toBe('The recording URL points to a private or internal address.');
        expect(refused.cause, name).toMatchObject({ name: 'AddressRefusedError' });
        expect(String((refused.cause as Error).message), name).toContain(address);
      }
      // And the first address itself, once private addresses are not allowed at all.
      const direct = await failure(fetchRecording(`${host.origin}/recordings/captain.flac`, options(false)));
      expect(direct.code).toBe('URL_NOT_ALLOWED');
    });
  });
});
