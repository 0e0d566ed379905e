import path from 'node:path';
import type { Logger } from 'pino';
import { PGlitePool } from '../db/pglite-pool.js';
import type { DatabasePool, PoolClient, QueryResult } from '../db/pool.js';
import { PostgresPool } from '../db/postgres-pool.js';
import {
  DataFolderInUseError,
  lockDataFolder,
  readFolderOwner,
  type FolderOwner,
} from './data-folder-lock.js';
import { SessionSocketServer } from './session-socket-server.js';

/**
 * How a process may use an embedded database folder:
 * - `exclusive`: it must own the folder (serve, worker): refused if another process does.
 * - `shared`: through the owner if one runs, otherwise owning it (operator commands).
 */
export type FolderAccess = 'exclusive' | 'shared';

export interface EmbeddedDatabaseOptions {
  access: FolderAccess;
  logger: Logger;
  /** How long a `shared` opener waits for a starting owner's socket to answer. */
  connectTimeoutMs?: number;
  /** See SessionSocketServerOptions. */
  idleInTransactionMs?: number;
}

/** The folder's database, owned by this process or reached through its owner. */
export interface EmbeddedDatabase {
  pool: DatabasePool;
  /** `self`: this process holds the folder; `owner`: it talks to the owner's socket. */
  via: 'self' | 'owner';
  owner: FolderOwner;
}

/** Thrown for `exclusive` access to a folder another process holds. */
export class DatabaseInUseError extends Error {
  constructor(readonly inUse: DataFolderInUseError) {
    const owner = inUse.owner;
    super(
      `${inUse.message}.\n` +
        'Only one process may open the embedded database: stop that one first ' +
        (owner ? `(kill ${owner.pid}) ` : '') +
        'or run everything in it (serve runs the workers in-process by default; operator commands ' +
        'reach the data through it). To run several servers or workers, use PostgreSQL (DATABASE_URL).',
    );
    this.name = 'DatabaseInUseError';
  }
}

/**
 * Opens the PGlite folder under its lock, or reaches it through the process that holds it — never a
 * second copy of the database.
 *
 * Why a wire-protocol socket rather than an admin channel: every operator command, today's and
 * tomorrow's, gets an ordinary database handle and runs the same code as on PostgreSQL with
 * DATABASE_URL (repositories, migrations, transactions), with nothing to add to the owner per command.
 * The owner keeps one session; socket clients take turns with its own pool, a whole transaction at a time.
 */
export async function openEmbeddedDatabase(
  directory: string,
  options: EmbeddedDatabaseOptions,
): Promise<EmbeddedDatabase> {
  const { logger } = options;
  const deadline = Date.now() + (options.connectTimeoutMs ?? 30_000);
  for (;;) {
    try {
      return await ownFolder(directory, options);
    } catch (error) {
      if (!(error instanceof DataFolderInUseError)) throw error;
      if (options.access === 'exclusive') throw new DatabaseInUseError(error);
      // Read the record again if it was not written yet when the lock was found taken.
      const owner = error.owner ?? (await readFolderOwner(directory));
      if (owner) {
        const pool = await connectThroughOwner(owner, logger);
        if (pool) {
          logger.debug({ owner }, 'using the embedded database through its owner');
          return { pool, via: 'owner', owner };
        }
      }
      // The owner is starting (no record or socket yet) or stopping (socket gone, lock not yet).
      if (Date.now() > deadline)
        throw new Error(`${error.message}, but its database socket does not answer`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

async function ownFolder(directory: string, options: EmbeddedDatabaseOptions): Promise<EmbeddedDatabase> {
  const { logger } = options;
  const lock = await lockDataFolder(directory, {
    onCompromised: (error) => {
      // Another process has the folder now: writing on would make two copies. Stop at once.
      logger.fatal({ err: error, directory }, 'lost the lock of the embedded database: exiting');
      process.exit(70);
    },
  });
  let pglite: PGlitePool | undefined;
  try {
    pglite = await PGlitePool.open(directory);
    const socket = await SessionSocketServer.start({
      session: pglite,
      socketPath: lock.owner.socketPath,
      logger,
      ...(options.idleInTransactionMs ? { idleInTransactionMs: options.idleInTransactionMs } : {}),
    });
    return { pool: new OwnedPGlitePool(pglite, socket, lock.release), via: 'self', owner: lock.owner };
  } catch (error) {
    await pglite?.end().catch(() => undefined);
    await lock.release();
    throw error;
  }
}

/** A pool on the owner's socket, or null if the socket does not answer (yet, or any more). */
async function connectThroughOwner(owner: FolderOwner, logger: Logger): Promise<DatabasePool | null> {
  const pool = new PostgresPool(
    { socketDirectory: path.dirname(owner.socketPath) },
    // Statements of one process queue at the owner anyway; a few connections keep a transaction
    // and a lookup beside it from waiting on each other here.
    4,
    (error) => logger.error({ err: error }, 'idle connection to the database owner failed'),
  );
  try {
    await pool.query('select 1');
    return pool;
  } catch (error) {
    await pool.end().catch(() => undefined);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ECONNREFUSED' || code === 'ECONNRESET') return null;
    throw error;
  }
}

/** The owner's pool: closing it stops the socket, then the database, then lets go of the folder. */
class OwnedPGlitePool implements DatabasePool {
  readonly kind = 'pglite';

  constructor(
    private readonly pglite: PGlitePool,
    private readonly socket: SessionSocketServer,
    private readonly releaseFolder: () => Promise<void>,
  ) {}

  connect(): Promise<PoolClient> {
    return this.pglite.connect();
  }

  query<Row>(sql: string, parameters?: readonly unknown[]): Promise<QueryResult<Row>> {
    return this.pglite.query<Row>(sql, parameters);
  }

  async end(): Promise<void> {
    await this.socket.close();
    await this.pglite.end();
    // Not on failure: the folder stays locked while this process might still have it open.
    await this.releaseFolder();
  }
}
