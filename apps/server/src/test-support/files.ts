import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inflateRawSync } from 'node:zlib';
import type { RecordingUploadState } from '@verbatim/contracts';
import type { FastifyInstance } from 'fastify';

/** A multipart/form-data body with one file field, as a browser's FormData sends it. */
export function multipartBody(
  field: string,
  data: Buffer,
  fileName = 'blob',
  contentType = 'application/octet-stream',
): { body: Buffer; contentType: string } {
  const boundary = `----verbatim${createHash('sha1').update(data).digest('hex').slice(0, 16)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: ${contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    body: Buffer.concat([head, data, tail]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

export function sha1(data: Buffer): string {
  return createHash('sha1').update(data).digest('hex');
}

/** `PUT /media/{fileId}` of one chunk, in the multipart field theFile. */
export function putChunk(
  app: FastifyInstance,
  headers: Record<string, string>,
  fileId: string,
  startByte: number,
  chunk: Buffer,
) {
  const { body, contentType } = multipartBody('theFile', chunk);
  return app.inject({
    method: 'PUT',
    url: `/api/v1/media/${fileId}`,
    headers: { ...headers, 'content-type': contentType, 'x-start-byte': String(startByte) },
    payload: body,
  });
}

/** A `PUT /media/{fileId}` over real HTTP whose chunk is only partly sent until `finish()`. */
export interface OpenChunkRequest {
  /** The answer; undefined when the connection ended without one (the server died, or `cut()`). */
  answer: Promise<{ status: number; body: string } | undefined>;
  /** Sends the rest of the chunk. */
  finish(): void;
  /** Drops the connection, as a client whose network goes away. */
  cut(): void;
}

/** Starts `PUT /media/{fileId}` at `startByte` and sends the first `sentBytes` of its multipart body. */
export function openChunkRequest(
  baseUrl: string,
  headers: Record<string, string>,
  fileId: string,
  startByte: number,
  chunk: Buffer,
  sentBytes: (bodyLength: number) => number,
): OpenChunkRequest {
  const { body, contentType } = multipartBody('theFile', chunk);
  const { hostname, port } = new URL(baseUrl);
  const request = httpRequest({
    host: hostname,
    port,
    method: 'PUT',
    path: `/api/v1/media/${fileId}`,
    headers: {
      ...headers,
      'content-type': contentType,
      'content-length': String(body.length),
      'x-start-byte': String(startByte),
    },
  });
  const answer = new Promise<{ status: number; body: string } | undefined>((resolve) => {
    let responded = false;
    request.on('response', (response) => {
      responded = true;
      let text = '';
      response.on('data', (part: Buffer) => (text += part.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      response.on('error', () => resolve(undefined));
    });
    request.on('error', () => resolve(undefined));
    request.on('close', () => {
      if (!responded) resolve(undefined);
    });
  });
  const split = sentBytes(body.length);
  request.write(body.subarray(0, split));
  return { answer, finish: () => request.end(body.subarray(split)), cut: () => request.destroy() };
}

export interface RecordingMetadata {
  fileName: string;
  type: string;
  languageCode: string;
  callbackUrl?: string;
}

/** The placeholder of a resumable upload of `data` (POST /media/recordings), nothing sent yet. */
export async function createRecordingUpload(
  app: FastifyInstance,
  headers: Record<string, string>,
  data: Buffer,
  metadata: RecordingMetadata,
): Promise<RecordingUploadState> {
  const created = await app.inject({
    method: 'POST',
    url: '/api/v1/media/recordings',
    headers,
    payload: { ...metadata, size: data.length, sha1: sha1(data) },
  });
  if (created.statusCode !== 200) throw new Error(`create: ${created.statusCode} ${created.body}`);
  return created.json<RecordingUploadState>();
}

/** The whole resumable upload as the console does it: placeholder, then chunks from the size held. */
export async function uploadInChunks(
  app: FastifyInstance,
  headers: Record<string, string>,
  data: Buffer,
  metadata: RecordingMetadata,
  chunkBytes = 64 * 1024,
): Promise<RecordingUploadState> {
  let state = await createRecordingUpload(app, headers, data, metadata);
  while (!state.isCompleted) {
    const response = await putChunk(
      app,
      headers,
      state.fileId,
      state.size,
      data.subarray(state.size, state.size + chunkBytes),
    );
    if (response.statusCode !== 200) throw new Error(`chunk: ${response.statusCode} ${response.body}`);
    state = response.json<RecordingUploadState>();
  }
  return state;
}

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  answeredWith: number;
}

/** A local webhook receiver: answers each request with the next status of `statuses` (then 200). */
export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Statuses to answer next, in order; 200 once empty. */
  statuses: number[];
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const statuses: number[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const status = statuses.shift() ?? 200;
      received.push({
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        answeredWith: status,
      });
      response.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'no');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    statuses,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The receiver's side of Standard Webhooks, written from the specification (not the product's
 * code): base64 HMAC-SHA256 over "id.timestamp.body" with the key after `whsec_`.
 */
export function standardWebhookValid(secret: string, headers: IncomingHttpHeaders, body: string): boolean {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string') return false;
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  return signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    const given = Buffer.from(signature ?? '', 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** The entries of a zip archive (stored or deflated), read from its central directory. */
export function unzip(archive: Buffer): Map<string, Buffer> {
  const entries = new Map<string, Buffer>();
  const end = archive.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error('not a zip archive');
  const count = archive.readUInt16LE(end + 10);
  let offset = archive.readUInt32LE(end + 16);
  for (let index = 0; index < count; index++) {
    if (archive.readUInt32LE(offset) !== 0x02014b50) throw new Error('bad central directory');
    const method = archive.readUInt16LE(offset + 10);
    const compressedSize = archive.readUInt32LE(offset + 20);
    const nameLength = archive.readUInt16LE(offset + 28);
    const extraLength = archive.readUInt16LE(offset + 30);
    const commentLength = archive.readUInt16LE(offset + 32);
    const local = archive.readUInt32LE(offset + 42);
    const name = archive.toString('utf8', offset + 46, offset + 46 + nameLength);
    const dataStart = local + 30 + archive.readUInt16LE(local + 26) + archive.readUInt16LE(local + 28);
    const data = archive.subarray(dataStart, dataStart + compressedSize);
    entries.set(name, method === 8 ? inflateRawSync(data) : Buffer.from(data));
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** A customer of a `verbatim serve` process, over real HTTP: signed in with the password grant. */
export class HttpCustomer {
  private constructor(
    readonly baseUrl: string,
    private readonly token: string,
  ) {}

  static async signIn(baseUrl: string, email: string, password: string): Promise<HttpCustomer> {
    const response = await fetch(`${baseUrl}/api/v1/auth/profile/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_id: 'verbatim-console',
        grant_type: 'password',
        username: email,
        password,
      }),
    });
    if (response.status !== 200) throw new Error(`sign-in: ${response.status} ${await response.text()}`);
    return new HttpCustomer(baseUrl, ((await response.json()) as { access_token: string }).access_token);
  }

  /** The header that authenticates a request of this customer's, for requests made by other means. */
  get authorization(): { authorization: string } {
    return { authorization: `Bearer ${this.token}` };
  }

  async text(url: string): Promise<string> {
    const response = await fetch(`${this.baseUrl}/api/v1${url}`, {
      headers: { authorization: `Bearer ${this.token}` },
    });
    if (response.status !== 200) throw new Error(`GET ${url}: ${response.status} ${await response.text()}`);
    return response.text();
  }

  /** A call with the customer's credentials, whatever its answer: its status and body. */
  async request(
    method: string,
    url: string,
    body?: string | FormData | Buffer,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; text: string }> {
    const response = await fetch(`${this.baseUrl}/api/v1${url}`, {
      method,
      headers: { authorization: `Bearer ${this.token}`, ...headers },
      ...(body !== undefined ? { body } : {}),
    });
    return { status: response.status, text: await response.text() };
  }

  /** A call answered with 2xx and JSON (or nothing); any other answer throws with its body. */
  async json<T>(
    method: string,
    url: string,
    body?: string | FormData | Buffer,
    headers: Record<string, string> = {},
  ): Promise<T> {
    const { status, text } = await this.request(method, url, body, headers);
    if (status >= 300) throw new Error(`${method} ${url}: ${status} ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  }

  createUpload(metadata: Record<string, unknown>): Promise<RecordingUploadState> {
    return this.json('POST', '/media/recordings', JSON.stringify(metadata), {
      'content-type': 'application/json',
    });
  }

  putChunk(fileId: string, startByte: number, chunk: Buffer): Promise<RecordingUploadState> {
    const form = new FormData();
    form.append('theFile', new Blob([chunk]), 'blob');
    return this.json('PUT', `/media/${fileId}`, form, { 'x-start-byte': String(startByte) });
  }
}
