import pg from 'pg';
import type { DatabasePool, PoolClient, QueryResult } from './pool.js';

const INT8 = 20;
const DATE = 1082;

/**
 * Parsing shared with PGlite so both backends hand the same values to the code: int8 as a JS
 * number (our int8 columns hold cents, bytes and counts, far below 2^53) and dates as strings.
 */
const typeParsers: pg.CustomTypesConfig = {
  getTypeParser: (oid: number, format?: 'text' | 'binary'): ((value: string) => unknown) => {
    if (oid === INT8) return (value: string) => Number(value);
    if (oid === DATE) return (value: string) => value;
    return pg.types.getTypeParser(oid, format) as (value: string) => unknown;
  },
};

/** A `postgres://` URL, or the directory of the Unix socket an embedded database's owner serves. */
export type PostgresTarget = string | { socketDirectory: string };

export class PostgresPool implements DatabasePool {
  readonly kind = 'postgres';
  readonly #pool: pg.Pool;

  constructor(target: PostgresTarget, poolSize: number, onError: (error: Error) => void) {
    const connection: pg.PoolConfig =
      typeof target === 'string'
        ? { connectionString: target }
        : // Explicit values, so that PGHOST, PGUSER, PGSSLMODE… of the environment cannot redirect it.
          { host: target.socketDirectory, port: 5432, user: 'postgres', database: 'postgres', ssl: false };
    this.#pool = new pg.Pool({ ...connection, max: poolSize, types: typeParsers });
    // An idle client losing its connection must not crash the process; the next query reconnects.
    this.#pool.on('error', onError);
  }

  async connect(): Promise<PoolClient> {
    const client = await this.#pool.connect();
    return {
      query: async <Row>(sql: string, parameters?: readonly unknown[]) =>
        toResult<Row>(await client.query(sql, parameters ? [...parameters] : undefined)),
      release: () => client.release(),
    };
  }

  async query<Row>(sql: string, parameters?: readonly unknown[]): Promise<QueryResult<Row>> {
    return toResult<Row>(await this.#pool.query(sql, parameters ? [...parameters] : undefined));
  }

  async end(): Promise<void> {
    await this.#pool.end();
  }
}

function toResult<Row>(result: pg.QueryResult): QueryResult<Row> {
  return { rows: result.rows as Row[], rowCount: result.rowCount, command: result.command };
}
