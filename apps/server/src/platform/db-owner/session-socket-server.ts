import { chmod, unlink } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import type { Logger } from 'pino';
import type { RawSession } from '../db/pglite-pool.js';

/** What the socket needs of the embedded database: its one session, taken in turn. */
export interface SharedSession {
  connectRaw(): Promise<RawSession>;
}

export interface SessionSocketServerOptions {
  session: SharedSession;
  /** Path of the Unix socket (`…/.s.PGSQL.5432`, so that pg finds it from its directory). */
  socketPath: string;
  logger: Logger;
  /**
   * A client that keeps the session (inside a transaction, or between Parse and Sync) without
   * sending anything for this long is disconnected and its transaction rolled back: while it holds
   * the session, the server itself waits.
   */
  idleInTransactionMs?: number;
}

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
/** PostgreSQL refuses messages above 1 GB too; anything larger is a broken or hostile client. */
const MAX_MESSAGE_BYTES = 1 << 30;

/**
 * Serves the owner's PGlite session on a Unix socket in the PostgreSQL wire protocol, so that other
 * local processes (operator commands) use the ordinary `pg` driver exactly as with DATABASE_URL.
 *
 * Why not `@electric-sql/pglite-socket`'s server: its queue multiplexes socket connections by
 * message and pins the session to a connection only while `isInTransaction()` — it knows nothing of
 * the in-process users of the same PGlite (our pool: Kysely, pg-boss), so a socket statement can run
 * inside the server's open transaction and the server's inside a client's; and between a client's
 * Parse and Sync (an implicit transaction, not a transaction block) another connection's messages
 * can run. Here every connection takes the session through the same turn-taking as the server's
 * own pool (`PGlitePool.connectRaw`) and keeps it until the backend reports ReadyForQuery "idle":
 * a client's transaction or extended-protocol exchange is never interleaved with anyone's.
 */
export class SessionSocketServer {
  readonly #options: SessionSocketServerOptions;
  readonly #server: Server;
  readonly #connections = new Set<SessionConnection>();

  private constructor(options: SessionSocketServerOptions) {
    this.#options = options;
    this.#server = createServer((socket) => {
      const connection = new SessionConnection(socket, options, () => this.#connections.delete(connection));
      this.#connections.add(connection);
    });
  }

  /** Listens on the socket path (replacing a stale socket file: the caller holds the folder's lock). */
  static async start(options: SessionSocketServerOptions): Promise<SessionSocketServer> {
    await unlink(options.socketPath).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
    const server = new SessionSocketServer(options);
    await new Promise<void>((resolve, reject) => {
      server.#server.once('error', reject);
      server.#server.listen(options.socketPath, () => {
        server.#server.off('error', reject);
        resolve();
      });
    });
    // The directory is 0700 already; the socket's own mode is a second fence.
    await chmod(options.socketPath, 0o600);
    server.#server.on('error', (error) => options.logger.error({ err: error }, 'database socket failed'));
    return server;
  }

  get connectionCount(): number {
    return this.#connections.size;
  }

  /** Stops listening, disconnects every client (rolling back what they left open), removes the socket. */
  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    await Promise.all([...this.#connections].map((connection) => connection.close()));
    await closed;
    await unlink(this.#options.socketPath).catch(() => undefined);
  }
}

type Phase = 'startup' | 'ready' | 'closed';

class SessionConnection {
  #phase: Phase = 'startup';
  #buffer: Buffer = Buffer.alloc(0);
  #pumping = false;
  #session: RawSession | null = null;
  /** The last message run left the session in the middle of an exchange (no ReadyForQuery idle yet). */
  #midExchange = false;
  #idleTimer: NodeJS.Timeout | undefined;
  #finished: Promise<void> | null = null;

  constructor(
    private readonly socket: Socket,
    private readonly options: SessionSocketServerOptions,
    private readonly onGone: () => void,
  ) {
    socket.on('data', (chunk: Buffer) => {
      this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
      void this.#pump();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE')
        options.logger.warn({ err: error }, 'database socket client failed');
    });
    socket.on('close', () => void this.close());
  }

  /** Ends the connection; resolves once the session is clean and handed on. */
  close(): Promise<void> {
    this.#finished ??= this.#finish();
    return this.#finished;
  }

  async #finish(): Promise<void> {
    this.#phase = 'closed';
    clearTimeout(this.#idleTimer);
    this.socket.destroy();
    // Messages still being run finish first; the pump sees the closed phase and stops.
    while (this.#pumping) await new Promise((resolve) => setImmediate(resolve));
    const session = this.#session;
    this.#session = null;
    if (session) {
      try {
        if (this.#midExchange) await abandonExchange(session);
      } catch (error) {
        this.options.logger.error({ err: error }, 'could not roll back a disconnected client');
      } finally {
        session.release();
      }
    }
    this.onGone();
  }

  // A method, not the field: TypeScript would keep the narrowing of #phase across awaits.
  #closed(): boolean {
    return this.#phase === 'closed';
  }

  async #pump(): Promise<void> {
    if (this.#pumping) return;
    this.#pumping = true;
    try {
      for (;;) {
        if (this.#closed()) return;
        const message = this.#takeMessage();
        if (!message) return;
        await this.#handle(message);
      }
    } catch (error) {
      this.options.logger.warn({ err: error }, 'database socket client dropped');
      // close() waits for this pump to stop, which the finally block records.
      void this.close();
    } finally {
      this.#pumping = false;
    }
  }

  /** The next complete message in the buffer, or null; throws on a length no client would send. */
  #takeMessage(): Buffer | null {
    // Startup-phase messages have no type byte: length (including itself), then a code.
    const headerBytes = this.#phase === 'startup' ? 0 : 1;
    if (this.#buffer.length < headerBytes + 4) return null;
    const length = this.#buffer.readInt32BE(headerBytes);
    if (length < 4 || length > MAX_MESSAGE_BYTES) throw new Error(`invalid message length ${length}`);
    const total = headerBytes + length;
    if (this.#buffer.length < total) return null;
    const message = this.#buffer.subarray(0, total);
    this.#buffer = this.#buffer.subarray(total);
    return message;
  }

  async #handle(message: Buffer): Promise<void> {
    if (this.#phase === 'startup') {
      const code = message.length >= 8 ? message.readInt32BE(4) : 0;
      // No TLS or GSS on a local socket: 'N' tells the client to go on in clear, as PostgreSQL does.
      if (code === SSL_REQUEST || code === GSSENC_REQUEST) return void this.socket.write('N');
      // Nothing runs in parallel with a client's query here, so there is nothing to cancel.
      if (code === CANCEL_REQUEST) return void this.close();
      this.#phase = 'ready';
    } else if (message[0] === 0x58 /* X: Terminate */) {
      return void this.close();
    }
    clearTimeout(this.#idleTimer);
    this.#session ??= await this.options.session.connectRaw();
    if (this.#closed()) return;
    // Until the reply says otherwise (or if running the message fails), assume something is open.
    this.#midExchange = true;
    const reply = new ReplyScanner();
    await this.#session.exec(message, (bytes) => {
      reply.feed(bytes);
      if (!this.socket.destroyed) this.socket.write(bytes);
    });
    if (reply.readyStatus === 'I') {
      // Idle: nothing of this client's is open any more; let the server and others in.
      this.#midExchange = false;
      const session = this.#session;
      this.#session = null;
      session.release();
      return;
    }
    if (this.#closed()) return;
    const limit = this.options.idleInTransactionMs ?? 10_000;
    this.#idleTimer = setTimeout(() => {
      this.options.logger.warn(
        { idleMs: limit },
        'database socket client idle inside a transaction: disconnected and rolled back',
      );
      this.socket.write(fatalError('25P03', 'terminating connection due to idle-in-transaction timeout'));
      void this.close();
    }, limit);
  }
}

/**
 * Follows the backend messages of one reply, chunk by chunk, for the status byte of its last
 * ReadyForQuery ('Z'): null when there is none (an extended-protocol message before Sync, or COPY
 * waiting for data), 'I' idle, 'T' in a transaction, 'E' in a failed one.
 */
export class ReplyScanner {
  readyStatus: 'I' | 'T' | 'E' | null = null;
  #header = Buffer.alloc(0);
  /** Bytes of the current message's body not seen yet. */
  #bodyLeft = 0;
  #inReady = false;

  feed(chunk: Buffer): void {
    let offset = 0;
    while (offset < chunk.length) {
      if (this.#bodyLeft > 0) {
        if (this.#inReady) {
          const status = String.fromCharCode(chunk[offset] ?? 0);
          this.readyStatus = status === 'T' || status === 'E' ? status : 'I';
          this.#inReady = false;
        }
        const taken = Math.min(this.#bodyLeft, chunk.length - offset);
        this.#bodyLeft -= taken;
        offset += taken;
        continue;
      }
      // Type byte and length (which counts itself), possibly split across chunks.
      const header = chunk.subarray(offset, offset + 5 - this.#header.length);
      this.#header = Buffer.concat([this.#header, header]);
      offset += header.length;
      if (this.#header.length < 5) return;
      this.#inReady = this.#header[0] === 0x5a;
      this.#bodyLeft = this.#header.readInt32BE(1) - 4;
      this.#header = Buffer.alloc(0);
    }
  }
}

/** Leaves no trace of a client that went away mid-exchange: ends COPY, the exchange, the transaction. */
async function abandonExchange(session: RawSession): Promise<void> {
  const ignore = () => undefined;
  // CopyFail outside COPY and Sync outside an exchange are ignored by the backend.
  await session.exec(frontendMessage('f', 'client disconnected\0'), ignore);
  await session.exec(frontendMessage('S', ''), ignore);
  await session.exec(frontendMessage('Q', 'ROLLBACK\0'), ignore);
}

function frontendMessage(type: string, body: string): Buffer {
  const payload = Buffer.from(body, 'utf8');
  const message = Buffer.alloc(5 + payload.length);
  message.write(type, 0, 'latin1');
  message.writeInt32BE(4 + payload.length, 1);
  payload.copy(message, 5);
  return message;
}

function fatalError(code: string, text: string): Buffer {
  const fields = `SFATAL\0VFATAL\0C${code}\0M${text}\0\0`;
  return frontendMessage('E', fields);
}
