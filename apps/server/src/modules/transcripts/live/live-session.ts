import type { WebSocket } from '@fastify/websocket';
import {
  LIVE_DONE_MESSAGE,
  LIVE_SAMPLE_RATE,
  liveCloseCodes,
  type ErrorCode,
  type LiveCloseCode,
  type LiveQuery,
  type LiveServerMessage,
} from '@verbatim/contracts';
import { StreamResampler, type StreamingRecogniser } from '@verbatim/speech';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../../errors/app-error.js';
import type { LiveMetering } from './live-metering.js';

/** Audio received and not yet analysed beyond which the socket stops reading (bytes). */
const maxPendingInputBytes = 2 * 1024 * 1024;
/** Unsent output beyond which partials are skipped (they are superseded anyway). */
const maxBufferedPartialBytes = 256 * 1024;
/** Unsent output beyond which the socket stops reading audio until the client reads. */
const maxBufferedOutputBytes = 1024 * 1024;
/** A client that answers no ping for this long is gone (its connection vanished without a close). */
const heartbeatMs = 20_000;

const closeCodeByError: Partial<Record<ErrorCode, LiveCloseCode>> = {
  UNAUTHENTICATED: liveCloseCodes.unauthenticated,
  RATE_LIMITED: liveCloseCodes.unauthenticated,
  VALIDATION_FAILED: liveCloseCodes.badRequest,
  BAD_REQUEST: liveCloseCodes.badRequest,
  UNSUPPORTED_LANGUAGE: liveCloseCodes.badRequest,
  INSUFFICIENT_CREDIT: liveCloseCodes.paymentRequired,
  API_KEY_CAP_REACHED: liveCloseCodes.paymentRequired,
  // The on-premise edition's licence refuses new work: what pays for it is missing, as with credit.
  LICENSE_INVALID: liveCloseCodes.paymentRequired,
  LICENSE_EXPIRED: liveCloseCodes.paymentRequired,
  LICENSE_EXHAUSTED: liveCloseCodes.paymentRequired,
  LICENSE_SUSPENDED: liveCloseCodes.paymentRequired,
  LICENSE_OFFLINE_TOO_LONG: liveCloseCodes.paymentRequired,
  SPEECH_UNAVAILABLE: liveCloseCodes.unavailable,
  SPEECH_BUSY: liveCloseCodes.unavailable,
};

/** A reason that fits a close frame (123 bytes): the code, and the message cut to fit. */
export function closeReason(code: ErrorCode, message: string): string {
  let reason = JSON.stringify({ code, message });
  let cut = message;
  while (Buffer.byteLength(reason) > 123 && cut.length > 0) {
    cut = cut.slice(0, -4);
    reason = JSON.stringify({ code, message: `${cut}…` });
  }
  return reason;
}

export function closeOfError(error: unknown): { code: LiveCloseCode; reason: string } {
  if (error instanceof AppError) {
    return {
      code: closeCodeByError[error.code] ?? liveCloseCodes.internalError,
      reason: closeReason(error.code, error.message),
    };
  }
  return {
    code: liveCloseCodes.internalError,
    reason: closeReason('INTERNAL_ERROR', 'The live transcription failed.'),
  };
}

export interface LiveSessionStart {
  query: LiveQuery;
  recogniser: StreamingRecogniser;
  metering: LiveMetering;
}

type State = 'authenticating' | 'running' | 'finishing' | 'closed';

/**
 * One live transcription socket. Frames are accepted from the first moment (a client may send
 * audio before `connected`) and analysed in order; the session runs once authenticated. Audio is
 * read only as fast as it is analysed: beyond `maxPendingInputBytes` waiting, or when the client
 * does not read what is sent, the socket stops reading and TCP pushes back on the sender.
 */
export class LiveSession {
  #state: State = 'authenticating';
  #pending: (Buffer | 'done')[] = [];
  #pendingBytes = 0;
  #processing = false;
  #start: LiveSessionStart | undefined;
  #resampler: StreamResampler | undefined;
  #samplesIn = 0;
  #idleTimer: NodeJS.Timeout | undefined;
  #heartbeat: NodeJS.Timeout | undefined;
  #alive = true;
  #paused = false;
  readonly #closed: Promise<void>;
  #resolveClosed!: () => void;

  constructor(
    private readonly socket: WebSocket,
    private readonly log: FastifyBaseLogger,
    private readonly idleTimeoutMs: number,
    private readonly onEnd: (session: LiveSession) => void,
  ) {
    this.#closed = new Promise((resolve) => (this.#resolveClosed = resolve));
    socket.on('message', (data, isBinary) => this.#onMessage(data, isBinary));
    socket.on('close', () => this.#onSocketClosed());
    socket.on('error', (error) => this.log.debug({ err: error }, 'live socket error'));
    socket.on('pong', () => (this.#alive = true));
    this.#heartbeat = setInterval(() => {
      // While the socket is paused (backpressure) its pongs are not read: that is no sign of absence.
      if (this.#paused) return;
      if (!this.#alive) {
        socket.terminate();
        return;
      }
      this.#alive = false;
      socket.ping();
    }, heartbeatMs);
    this.#heartbeat.unref();
    this.#armIdleTimer();
  }

  /** Resolves once the socket is closed and the session's resources are freed. */
  get closed(): Promise<void> {
    return this.#closed;
  }

  /** Authenticated and configured: `connected` is sent and the audio received so far is analysed. */
  begin(start: LiveSessionStart): boolean {
    if (this.#state !== 'authenticating') {
      start.recogniser.abort();
      return false;
    }
    this.#start = start;
    this.#resampler = new StreamResampler(start.query.sampleRate, LIVE_SAMPLE_RATE);
    this.#state = 'running';
    if (this.#pending.includes('done')) start.recogniser.endOfInput();
    this.#send({ type: 'connected' });
    this.#drain();
    return true;
  }

  /** Sends a segment (partials are skipped while the client is not reading). */
  sendSegment(message: LiveServerMessage): void {
    if (message.type === 'partial' && this.socket.bufferedAmount > maxBufferedPartialBytes) return;
    this.#send(message);
  }

  /** Refused before starting (credentials, parameters, credit, busy): closes with its code. */
  refuse(error: unknown): void {
    const { code, reason } = closeOfError(error);
    if (code === liveCloseCodes.internalError) this.log.error({ err: error }, 'live session failed to start');
    this.#close(code, reason);
  }

  /**
   * Ends the session from the server's side: the text heard so far is made final and sent
   * (unless the session failed), then the socket closes with `code`.
   */
  async stop(code: LiveCloseCode, reason: string, flush = true): Promise<void> {
    if (this.#state === 'closed' || this.#state === 'finishing') return this.#closed;
    if (this.#state === 'authenticating' || !this.#start) {
      this.#close(code, reason);
      return this.#closed;
    }
    this.#state = 'finishing';
    this.#pending = [];
    this.#pendingBytes = 0;
    const { recogniser, metering } = this.#start;
    try {
      if (flush) await recogniser.finish();
      else recogniser.abort();
    } catch (error) {
      this.log.warn({ err: error }, 'live session could not flush its final text');
    }
    await metering.finish(this.#samplesInAt16k()).catch(() => undefined);
    this.#close(code, reason);
    return this.#closed;
  }

  #onMessage(data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean): void {
    if (this.#state === 'closed' || this.#state === 'finishing') return;
    const buffer = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
    if (!isBinary) {
      if (buffer.toString('utf8').trim() === LIVE_DONE_MESSAGE) {
        // The audio still queued is analysed for finals only: the last final is not held up by
        // partials of audio the client has long finished sending.
        this.#start?.recogniser.endOfInput();
        this.#pending.push('done');
        this.#drain();
        return;
      }
      this.#close(
        liveCloseCodes.badRequest,
        closeReason(
          'BAD_REQUEST',
          `Text frames may only be "${LIVE_DONE_MESSAGE}"; audio goes in binary frames.`,
        ),
      );
      return;
    }
    this.#armIdleTimer();
    this.#pending.push(buffer);
    this.#pendingBytes += buffer.length;
    if (this.#pendingBytes > maxPendingInputBytes) this.#pause();
    this.#drain();
  }

  /** Analyses the frames waiting, one at a time and in order. */
  #drain(): void {
    if (this.#processing || this.#state !== 'running') return;
    this.#processing = true;
    void this.#process().finally(() => {
      this.#processing = false;
    });
  }

  async #process(): Promise<void> {
    const start = this.#start;
    if (!start) return;
    while (this.#state === 'running') {
      const frame = this.#pending.shift();
      if (frame === undefined) break;
      if (frame === 'done') {
        await this.stop(liveCloseCodes.normal, '');
        return;
      }
      this.#pendingBytes -= frame.length;
      const samples = decodeSamples(frame, start.query.encoding);
      if (!samples) {
        const size = start.query.encoding === 's16le' ? 2 : 4;
        this.#close(
          liveCloseCodes.badRequest,
          closeReason('BAD_REQUEST', `A binary frame must hold whole ${size}-byte samples.`),
        );
        return;
      }
      this.#samplesIn += samples.length;
      start.metering.received(this.#samplesInAt16k());
      const resampled = this.#resampler?.push(samples) ?? samples;
      try {
        await start.recogniser.push(resampled);
      } catch (error) {
        this.log.error({ err: error }, 'live recognition failed');
        await this.stop(liveCloseCodes.internalError, closeOfError(error).reason, false);
        return;
      }
      await this.#waitForReader();
      if (this.#paused && this.#pendingBytes < maxPendingInputBytes / 4) this.#resume();
    }
  }

  /** The client does not read what is sent: stop reading its audio until it does. */
  async #waitForReader(): Promise<void> {
    while (this.socket.bufferedAmount > maxBufferedOutputBytes && this.#state === 'running') {
      this.#pause();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  #pause(): void {
    if (this.#paused) return;
    this.#paused = true;
    this.socket.pause();
  }

  #resume(): void {
    if (!this.#paused) return;
    this.#paused = false;
    this.#alive = true;
    this.socket.resume();
  }

  #armIdleTimer(): void {
    if (this.#idleTimer) clearTimeout(this.#idleTimer);
    this.#idleTimer = setTimeout(() => {
      // Audio still waiting to be analysed, or `Done` received: the client is not idle.
      if (this.#pending.length > 0 || this.#processing) {
        this.#armIdleTimer();
        return;
      }
      void this.stop(
        liveCloseCodes.idle,
        closeReason('BAD_REQUEST', `No audio for ${Math.round(this.idleTimeoutMs / 1000)} s.`),
      );
    }, this.idleTimeoutMs);
    this.#idleTimer.unref();
  }

  #send(message: LiveServerMessage): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    this.socket.send(JSON.stringify(message));
  }

  #close(code: number, reason: string): void {
    // A paused socket would not read the client's closing handshake.
    this.#resume();
    if (this.socket.readyState === this.socket.OPEN || this.socket.readyState === this.socket.CONNECTING) {
      this.socket.close(code, reason);
    }
    this.#release();
  }

  /** The client left (or the socket closed): the recogniser is freed at once. */
  #onSocketClosed(): void {
    if (this.#state === 'finishing') return;
    const start = this.#start;
    if (start && this.#state === 'running') {
      start.recogniser.abort();
      // What was streamed was used: charged even though nobody waits for the final text.
      void start.metering.finish(this.#samplesInAt16k()).catch(() => undefined);
    }
    this.#release();
  }

  #samplesInAt16k(): number {
    const rate = this.#start?.query.sampleRate ?? LIVE_SAMPLE_RATE;
    return Math.round((this.#samplesIn * LIVE_SAMPLE_RATE) / rate);
  }

  #release(): void {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    this.#pending = [];
    this.#pendingBytes = 0;
    if (this.#idleTimer) clearTimeout(this.#idleTimer);
    if (this.#heartbeat) clearInterval(this.#heartbeat);
    this.#start?.recogniser.abort();
    this.onEnd(this);
    this.#resolveClosed();
  }
}

/** The samples of a binary frame, or undefined when it does not hold a whole number of them. */
function decodeSamples(frame: Buffer, encoding: LiveQuery['encoding']): Float32Array | undefined {
  if (encoding === 's16le') {
    if (frame.length % 2 !== 0) return undefined;
    const out = new Float32Array(frame.length / 2);
    for (let i = 0; i < out.length; i += 1) out[i] = frame.readInt16LE(i * 2) / 32768;
    return out;
  }
  if (frame.length % 4 !== 0) return undefined;
  const out = new Float32Array(frame.length / 4);
  for (let i = 0; i < out.length; i += 1) out[i] = frame.readFloatLE(i * 4);
  return out;
}
