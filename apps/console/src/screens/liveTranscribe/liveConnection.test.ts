import type { LiveSegmentMessage, LiveSource } from '@verbatim/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import type * as Ws from 'ws';
import type { RawData, WebSocket as ServerSocket } from 'ws';
import { LiveConnection, type LiveConnectionHandlers, liveSocketUrl } from './liveConnection';

// The console's tests resolve packages as a browser would, which gives ws's browser stub: load the
// Node.js server as Node.js does.
const { WebSocketServer } = createRequire(import.meta.url)('ws') as typeof Ws;

/**
 * A local socket server speaking the live protocol's wire format, to check the console's side of
 * it: what it sends, when, and how it reads what comes back.
 */
async function startServer(onConnection: (socket: ServerSocket, url: URL) => void) {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  server.on('connection', (socket, request) => onConnection(socket, new URL(request.url ?? '/', 'http://x')));
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('no port');
  servers.push(server);
  return { host: `127.0.0.1:${address.port}` };
}

const servers: InstanceType<typeof WebSocketServer>[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    for (const client of server.clients) client.terminate();
    await new Promise((resolve) => server.close(resolve));
  }
});

function recorder() {
  const events: string[] = [];
  const segments: LiveSegmentMessage[] = [];
  let closed: Parameters<LiveConnectionHandlers['onClose']>[0] | undefined;
  const handlers: LiveConnectionHandlers = {
    onConnected: () => events.push('connected'),
    onSegment: (message) => segments.push(message),
    onClose: (close) => {
      closed = close;
      events.push('closed');
    },
  };
  return { events, segments, handlers, closed: () => closed };
}

const samplesOf = (data: RawData) => {
  const bytes = data as Buffer;
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
};

function connectTo(host: string, handlers: LiveConnectionHandlers, source: LiveSource) {
  return new LiveConnection(
    liveSocketUrl(
      { protocol: 'http:', host },
      { accessToken: 't', languageCode: 'en', endpoints: true, source },
    ),
    handlers,
  );
}

async function until(condition: () => boolean, timeoutMs = 3000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('liveSocketUrl', () => {
  it('addresses the socket on the console host with the spec query', () => {
    const url = new URL(
      liveSocketUrl(
        { protocol: 'https:', host: 'stt.example.com' },
        { accessToken: 'tok en', languageCode: 'fr-medical', endpoints: false, source: 'file' },
      ),
    );
    expect(url.origin).toBe('wss://stt.example.com');
    expect(url.pathname).toBe('/api/v1/transcripts/streaming');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      accessToken: 'tok en',
      languageCode: 'fr-medical',
      endpoints: 'false',
      source: 'file',
    });
    expect(
      liveSocketUrl(
        { protocol: 'http:', host: 'localhost:8080' },
        {
          accessToken: undefined,
          languageCode: 'en',
          endpoints: true,
          source: 'microphone',
        },
      ),
    ).toBe(
      'ws://localhost:8080/api/v1/transcripts/streaming?languageCode=en&endpoints=true&source=microphone',
    );
  });
});

describe('LiveConnection', () => {
  it('holds audio until the server says connected, sends it as float32 frames in order, then Done; reads segments', async () => {
    const received: (Float32Array | string)[] = [];
    let server: ServerSocket | undefined;
    const { host } = await startServer((socket) => {
      server = socket;
      socket.on('message', (data, isBinary) =>
        received.push(isBinary ? samplesOf(data) : (data as Buffer).toString('utf8')),
      );
    });
    const client = recorder();
    const connection = connectTo(host, client.handlers, 'microphone');
    connection.send(new Float32Array([0.25, -0.5]));
    await until(() => server !== undefined);
    connection.send(new Float32Array([1, 2, 3]).subarray(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Open but not ready: nothing sent yet.
    expect(received).toEqual([]);

    server?.send(JSON.stringify({ type: 'connected' }));
    await until(() => client.events.includes('connected'));
    connection.send(new Float32Array([4]));
    connection.finish();
    connection.send(new Float32Array([5])); // after Done: dropped
    await until(() => received.length === 4);
    expect(received).toEqual([
      new Float32Array([0.25, -0.5]),
      new Float32Array([2, 3]),
      new Float32Array([4]),
      'Done',
    ]);

    server?.send(JSON.stringify({ type: 'partial', segment: 0, text: 'hel' }));
    server?.send('not json');
    server?.send(JSON.stringify({ type: 'final', segment: 0, text: 'Hello.' }));
    server?.close(1000);
    await until(() => client.events.includes('closed'));
    expect(client.segments).toEqual([
      { type: 'partial', segment: 0, text: 'hel' },
      { type: 'final', segment: 0, text: 'Hello.' },
    ]);
    expect(client.closed()).toEqual({ code: 1000, reason: undefined, wasConnected: true });
  });

  it('reports the JSON close reason of a refused session, before connected', async () => {
    const { host } = await startServer((socket) => {
      socket.close(4402, JSON.stringify({ code: 'INSUFFICIENT_CREDIT', message: 'No credit left.' }));
    });
    const client = recorder();
    connectTo(host, client.handlers, 'file');
    await until(() => client.events.includes('closed'));
    expect(client.events).toEqual(['closed']);
    expect(client.closed()).toEqual({
      code: 4402,
      reason: { code: 'INSUFFICIENT_CREDIT', message: 'No credit left.' },
      wasConnected: false,
    });
  });

  it('close() ends the session at once', async () => {
    let serverClosed: number | undefined;
    const { host } = await startServer((socket) => {
      socket.send(JSON.stringify({ type: 'connected' }));
      socket.on('close', (code) => {
        serverClosed = code;
      });
    });
    const client = recorder();
    const connection = connectTo(host, client.handlers, 'microphone');
    await until(() => client.events.includes('connected'));
    connection.close();
    await until(() => serverClosed !== undefined);
    expect(serverClosed).toBe(1000);
  });
});
