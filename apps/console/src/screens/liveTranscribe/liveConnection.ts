import {
  LIVE_DONE_MESSAGE,
  LIVE_STREAMING_PATH,
  type LiveCloseReason,
  liveCloseReasonSchema,
  type LiveSegmentMessage,
  liveServerMessageSchema,
  type LiveSource,
} from '@verbatim/contracts';

export interface LiveConnectionOptions {
  /** The session's access token (spec §7: sent as the `accessToken` query parameter). */
  accessToken: string | undefined;
  languageCode: string;
  endpoints: boolean;
  source: LiveSource;
}

export interface LiveConnectionHandlers {
  /** The socket is open and the server sent `connected`: audio may flow. */
  onConnected: () => void;
  onSegment: (message: LiveSegmentMessage) => void;
  /** The socket closed; `reason` is the server's JSON close reason when it gave one. */
  onClose: (close: { code: number; reason: LiveCloseReason | undefined; wasConnected: boolean }) => void;
}

/** Audio held while the socket opens (recording starts first, spec §4): at most 10 s at 16 kHz. */
const maxQueuedSamples = 10 * 16_000;

/** The socket's address on the console's own host (spec §7: the API host). */
export function liveSocketUrl(location: Pick<Location, 'protocol' | 'host'>, options: LiveConnectionOptions) {
  const query = new URLSearchParams({
    ...(options.accessToken ? { accessToken: options.accessToken } : {}),
    languageCode: options.languageCode,
    endpoints: String(options.endpoints),
    source: options.source,
  });
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}${LIVE_STREAMING_PATH}?${query.toString()}`;
}

/**
 * One streaming session (spec §4): ready to send only once the socket is open and the server has
 * sent `connected`; audio given earlier waits (bounded) and goes first. Socket errors are logged,
 * not shown (spec §8); the screen learns of them through `onClose`.
 */
export class LiveConnection {
  private readonly socket: WebSocket;
  private ready = false;
  private finished = false;
  private queued: Float32Array[] = [];
  private queuedSamples = 0;

  constructor(url: string, handlers: LiveConnectionHandlers) {
    this.socket = new WebSocket(url);
    this.socket.binaryType = 'arraybuffer';
    this.socket.addEventListener('message', (event: MessageEvent<unknown>) => {
      if (typeof event.data !== 'string') return;
      const message = parseServerMessage(event.data);
      if (!message) {
        console.warn('live transcription: unexpected message', event.data);
      } else if (message.type === 'connected') {
        if (this.ready) return;
        this.ready = true;
        for (const samples of this.queued) this.transmit(samples);
        this.queued = [];
        this.queuedSamples = 0;
        if (this.finished) this.socket.send(LIVE_DONE_MESSAGE);
        handlers.onConnected();
      } else {
        handlers.onSegment(message);
      }
    });
    this.socket.addEventListener('error', () => {
      console.warn('live transcription: socket error');
    });
    this.socket.addEventListener('close', (event: CloseEvent) => {
      const reason = parseCloseReason(event.reason);
      if (event.code !== 1000) {
        console.warn('live transcription: socket closed', event.code, reason?.message ?? event.reason);
      }
      const wasConnected = this.ready;
      this.ready = false;
      this.queued = [];
      handlers.onClose({ code: event.code, reason, wasConnected });
    });
  }

  /** Sends 16 kHz mono samples, or holds them until the server is ready. */
  send(samples: Float32Array): void {
    if (this.finished) return;
    if (this.ready) {
      this.transmit(samples);
      return;
    }
    if (this.socket.readyState > WebSocket.OPEN) return;
    this.queued.push(samples);
    this.queuedSamples += samples.length;
    while (this.queuedSamples > maxQueuedSamples) this.queuedSamples -= this.queued.shift()?.length ?? 0;
  }

  /** Bytes given to the socket and not yet sent on the network (a slow connection). */
  get bufferedAmount(): number {
    return this.socket.bufferedAmount;
  }

  /** Spec §4 Stop: ends the stream with the text `Done`; the server flushes the last final and closes. */
  finish(): void {
    if (this.finished) return;
    this.finished = true;
    if (this.ready) this.socket.send(LIVE_DONE_MESSAGE);
  }

  /** Closes at once, without waiting for the last final. */
  close(): void {
    this.finished = true;
    if (this.socket.readyState === WebSocket.CONNECTING || this.socket.readyState === WebSocket.OPEN) {
      this.socket.close(1000);
    }
  }

  private transmit(samples: Float32Array): void {
    // Float32Array is little-endian on every platform browsers run on, as the socket expects.
    this.socket.send(
      samples.byteOffset === 0 && samples.byteLength === samples.buffer.byteLength
        ? samples.buffer
        : samples.slice().buffer,
    );
  }
}

function parseServerMessage(data: string) {
  try {
    const parsed = liveServerMessageSchema.safeParse(JSON.parse(data));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function parseCloseReason(reason: string): LiveCloseReason | undefined {
  if (!reason) return undefined;
  try {
    const parsed = liveCloseReasonSchema.safeParse(JSON.parse(reason));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
