import { PGlite, types } from '@electric-sql/pglite';
import type { DatabasePool, PoolClient, QueryResult } from './pool.js';

/**
 * The single PGlite session at the wire-protocol level, for the socket that lets other local
 * processes share it (platform/db-owner). Held exclusively, like a `PoolClient`.
 */
export interface RawSession {
  /** Runs one frontend protocol message; the backend's reply arrives through `onData`, copied. */
  exec(message: Uint8Array, onData: (bytes: Buffer) => void): Promise<void>;
  release(): void;
}

const pgliteOptions = {
  // Same parsing as the pg pool (see postgres-pool.ts): dates stay 'YYYY-MM-DD' strings.
  parsers: { [types.DATE]: (value: string) => value },
};

/** The files of a just-initialised in-memory cluster, made once per process. */
let freshClusterFiles: Promise<Blob> | undefined;

function freshCluster(): Promise<Blob> {
  if (!freshClusterFiles) {
    freshClusterFiles = PGlite.create(pgliteOptions).then(async (template) => {
      try {
        return await template.dumpDataDir('none');
      } finally {
        await template.close();
      }
    });
    // A failed initdb is tried again by the next database, not remembered.
    freshClusterFiles.catch(() => (freshClusterFiles = undefined));
  }
  return freshClusterFiles;
}

/**
 * A pg-compatible pool over embedded PGlite. PGlite is a single PostgreSQL session, so a
 * connection is exclusive: `connect()` waits for the previous holder to release, which keeps
 * Kysely transactions, pg-boss statements and other processes' sessions (`connectRaw`) from
 * interleaving inside each other's transactions.
 */
export class PGlitePool implements DatabasePool {
  readonly kind = 'pglite';
  #lastHolder: Promise<void> = Promise.resolve();

  private constructor(private readonly pglite: PGlite) {}

  /** An embedded database in `directory`, or a fresh one in memory when it is undefined. */
  static async open(directory: string | undefined): Promise<PGlitePool> {
    if (directory) return new PGlitePool(await PGlite.create(directory, pgliteOptions));
    // Every fresh in-memory cluster is the same: initdb (2–3 s of WebAssembly) runs once per
    // process, and each database starts from a copy of that cluster's files (0.5 s).
    return new PGlitePool(await PGlite.create({ ...pgliteOptions, loadDataDir: await freshCluster() }));
  }

  async connect(): Promise<PoolClient> {
    const release = await this.#acquire();
    return { query: (sql, parameters) => this.#run(sql, parameters), release };
  }

  async connectRaw(): Promise<RawSession> {
    const release = await this.#acquire();
    return {
      exec: (message, onData) =>
        // The bytes are a view into PGlite's WebAssembly memory, reused by the next message.
        this.pglite.runExclusive(() =>
          this.pglite.execProtocolRawStream(message, { onRawData: (bytes) => onData(Buffer.from(bytes)) }),
        ),
      release,
    };
  }

  /** Waits for the session; returns the function (idempotent) that hands it to the next waiter. */
  async #acquire(): Promise<() => void> {
    let release!: () => void;
    const previous = this.#lastHolder;
    this.#lastHolder = new Promise<void>((resolve) => (release = resolve));
    await previous;
    let released = false;
    return () => {
      if (!released) {
        released = true;
        release();
      }
    };
  }

  async query<Row>(sql: string, parameters?: readonly unknown[]): Promise<QueryResult<Row>> {
    const client = await this.connect();
    try {
      return await client.query<Row>(sql, parameters);
    } finally {
      client.release();
    }
  }

  async end(): Promise<void> {
    // Wait for whoever holds the session, then close it.
    const client = await this.connect();
    try {
      await this.pglite.close();
    } finally {
      client.release();
    }
  }

  async #run<Row>(sql: string, parameters?: readonly unknown[]): Promise<QueryResult<Row>> {
    if (parameters && parameters.length > 0) {
      const result = await this.pglite.query<Row>(sql, [...parameters]);
      return {
        rows: result.rows,
        rowCount: result.affectedRows ?? result.rows.length,
        command: commandOf(sql),
      };
    }
    // Without parameters use the simple protocol: it accepts several statements (pg-boss sends
    // its schema that way), as node-postgres does.
    const results = await this.pglite.exec(sql);
    const last = results.at(-1);
    const rows = (last?.rows ?? []) as Row[];
    return { rows, rowCount: last?.affectedRows ?? rows.length, command: commandOf(sql) };
  }
}

function commandOf(sql: string): string {
  const match = /^\s*(?:with\b[\s\S]*?\)\s*)?(\w+)/i.exec(sql);
  return (match?.[1] ?? '').toUpperCase();
}
