/** The narrow pg-style surface that Kysely, pg-boss and our own checks use, over PGlite or PostgreSQL. */
export interface QueryResult<Row> {
  rows: Row[];
  rowCount: number | null;
  command: string;
}

export interface PoolClient {
  query<Row>(sql: string, parameters?: readonly unknown[]): Promise<QueryResult<Row>>;
  release(): void;
}

export interface DatabasePool {
  readonly kind: 'pglite' | 'postgres';
  connect(): Promise<PoolClient>;
  query<Row>(sql: string, parameters?: readonly unknown[]): Promise<QueryResult<Row>>;
  end(): Promise<void>;
}
