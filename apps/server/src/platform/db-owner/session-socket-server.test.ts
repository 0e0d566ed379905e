import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGlitePool } from '../db/pglite-pool.js';
import { PostgresPool } from '../db/postgres-pool.js';
import { captureLogs } from '../../test-support/log-capture.js';
import { ReplyScanner, SessionSocketServer } from './session-socket-server.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('SessionSocketServer', () => {
  let directory: string;
  let pglite: PGlitePool;
  let server: SessionSocketServer;
  const logs = captureLogs();
  const clients: pg.Client[] = [];

  async function client(): Promise<pg.Client> {
    const connection = new pg.Client({ host: directory, port: 5432, user: 'postgres', database: 'postgres' });
    // A client the server disconnects reports it here; the test looks at the query's own error.
    connection.on('error', () => undefined);
    await connection.connect();
    clients.push(connection);
    return connection;
  }

  const rows = async (sql: string) => (await pglite.query<{ name: string }>(sql)).rows.map((row) => row.name);

  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'verbatim-socket-'));
    pglite = await PGlitePool.open(undefined);
    await pglite.query('create table items (name text primary key)');
    server = await SessionSocketServer.start({
      session: pglite,
      socketPath: path.join(directory, '.s.PGSQL.5432'),
      logger: logs.logger,
      idleInTransactionMs: 1000,
    });
  });
  afterAll(async () => {
    await Promise.all(clients.map((connection) => connection.end().catch(() => undefined)));
    await server.close();
    await pglite.end();
    await rm(directory, { recursive: true, force: true });
  });

  it('serves the session to the pg driver, on a socket only its user may open', async () => {
    expect((await stat(path.join(directory, '.s.PGSQL.5432'))).mode & 0o777).toBe(0o600);
    const pool = new PostgresPool({ socketDirectory: directory }, 2, () => undefined);
    try {
      const { rows: answer } = await pool.query<{ big: unknown; day: unknown; sum: unknown }>(
        "select 9007199254740991::int8 as big, '2026-02-03'::date as day, $1::int + $2::int as sum",
        [2, 3],
      );
      expect(answer).toEqual([{ big: 9007199254740991, day: '2026-02-03', sum: 5 }]);
    } finally {
      await pool.end();
    }
  });

  it('never runs the server’s statements inside a socket client’s transaction', async () => {
    const socket = await client();
    await socket.query('begin');
    await socket.query("insert into items values ('client-rolled-back')");
    // The server's own insert must wait for the client's transaction, not join it.
    const serverInsert = pglite.query("insert into items values ('server-kept')");
    await pause(100);
    await socket.query('rollback');
    await serverInsert;
    expect(await rows('select name from items order by name')).toEqual(['server-kept']);
  });

  it('never runs a socket client’s statements inside the server’s transaction', async () => {
    const socket = await client();
    const transaction = await pglite.connect();
    await transaction.query('begin');
    await transaction.query("insert into items values ('server-rolled-back')");
    const clientInsert = socket.query("insert into items values ('client-kept')");
    await pause(100);
    await transaction.query('rollback');
    transaction.release();
    await clientInsert;
    expect(await rows("select name from items where name like '%kept' order by name")).toEqual([
      'client-kept',
      'server-kept',
    ]);
    expect(await rows("select name from items where name like '%rolled-back'")).toEqual([]);
  });

  it('keeps read-modify-write transactions of clients and server apart', async () => {
    await pglite.query('create table counter (value int not null); insert into counter values (0)');
    const sockets = await Promise.all([client(), client(), client()]);
    const increment = async (run: (sql: string, parameters?: unknown[]) => Promise<{ rows: unknown[] }>) => {
      await run('begin');
      const { rows: current } = await run('select value from counter');
      await pause(2);
      await run('update counter set value = $1', [((current[0] as { value: number }).value ?? 0) + 1]);
      await run('commit');
    };
    const fromServer = async () => {
      const connection = await pglite.connect();
      try {
        await increment((sql, parameters) => connection.query(sql, parameters));
      } finally {
        connection.release();
      }
    };
    // Each client runs its transactions one after the other, as one pg connection must.
    const fromClient = async (socket: pg.Client) => {
      for (let round = 0; round < 10; round++)
        await increment((sql, parameters) => socket.query(sql, parameters));
    };
    await Promise.all([...sockets.map(fromClient), ...Array.from({ length: 30 }, fromServer)]);
    expect((await pglite.query<{ value: number }>('select value from counter')).rows[0]?.value).toBe(60);
  });

  it('rolls back what a client leaves open when it goes away, and lets the server go on', async () => {
    const socket = await client();
    await socket.query('begin');
    await socket.query("insert into items values ('abandoned')");
    const serverRead = pglite.query<{ name: string }>("select name from items where name = 'abandoned'");
    (socket as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    expect((await serverRead).rows).toEqual([]);
  });

  it('disconnects a client idle inside a transaction, so the server does not wait forever', async () => {
    const socket = await client();
    await socket.query('begin');
    await socket.query("insert into items values ('idle')");
    const started = Date.now();
    expect(
      (await pglite.query<{ n: number }>("select count(*)::int as n from items where name = 'idle'")).rows,
    ).toEqual([{ n: 0 }]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    await expect(socket.query('commit')).rejects.toThrow();
    expect(logs.lines.some((line) => String(line.msg).includes('idle inside a transaction'))).toBe(true);
  });

  it('finds the status of the last ReadyForQuery of a reply, however it is split', () => {
    const ready = (status: string) => Buffer.from([0x5a, 0, 0, 0, 5, status.charCodeAt(0)]);
    const parseComplete = Buffer.from([0x31, 0, 0, 0, 4]);
    // A DataRow whose value looks like a ReadyForQuery must not be taken for one.
    const dataRow = Buffer.from([0x44, 0, 0, 0, 16, 0, 1, 0, 0, 0, 6, 0x5a, 0, 0, 0, 5, 0x49]);
    const statusOf = (reply: Buffer, chunkSize: number) => {
      const scanner = new ReplyScanner();
      for (let offset = 0; offset < reply.length; offset += chunkSize)
        scanner.feed(reply.subarray(offset, offset + chunkSize));
      return scanner.readyStatus;
    };
    for (const size of [1, 2, 3, 5, 7, 1000]) {
      expect(statusOf(parseComplete, size)).toBeNull();
      expect(statusOf(Buffer.concat([parseComplete, dataRow]), size)).toBeNull();
      expect(statusOf(Buffer.concat([parseComplete, ready('T')]), size)).toBe('T');
      expect(statusOf(Buffer.concat([ready('T'), dataRow, parseComplete, ready('I')]), size)).toBe('I');
      expect(statusOf(Buffer.concat([dataRow, ready('E')]), size)).toBe('E');
    }
  });
});
