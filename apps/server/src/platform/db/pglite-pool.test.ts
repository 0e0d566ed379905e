import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGlitePool } from './pglite-pool.js';

describe('PGlitePool', () => {
  let pool: PGlitePool;
  beforeAll(async () => {
    pool = await PGlitePool.open(undefined);
  });
  afterAll(() => pool.end());

  it('runs several statements in one call, as pg-boss does for its schema', async () => {
    const result = await pool.query<{ n: number }>(
      'create table t (n int8); insert into t values (1), (2); select sum(n)::int8 as n from t',
    );
    expect(result.rows).toEqual([{ n: 3 }]);
  });

  it('parses values the way the PostgreSQL pool does', async () => {
    const { rows } = await pool.query<{ big: unknown; day: unknown; at: unknown; doc: unknown }>(
      "select 9007199254740991::int8 as big, '2026-02-03'::date as day, now() as at, '{\"a\":1}'::jsonb as doc",
    );
    expect(rows[0]).toMatchObject({ big: 9007199254740991, day: '2026-02-03', doc: { a: 1 } });
    expect(rows[0]?.at).toBeInstanceOf(Date);
  });

  it('reports affected rows and the command, as Kysely expects', async () => {
    const result = await pool.query('update t set n = n + $1', [10]);
    expect(result).toMatchObject({ rowCount: 2, command: 'UPDATE' });
  });

  it('gives a connection to one holder at a time, so transactions never interleave', async () => {
    await pool.query('create table counter (value int not null)');
    await pool.query('insert into counter values (0)');
    const increment = async () => {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const { rows } = await client.query<{ value: number }>('select value from counter');
        await new Promise((resolve) => setTimeout(resolve, 5));
        await client.query('update counter set value = $1', [(rows[0]?.value ?? 0) + 1]);
        await client.query('commit');
      } finally {
        client.release();
      }
    };
    await Promise.all(Array.from({ length: 20 }, increment));
    expect((await pool.query<{ value: number }>('select value from counter')).rows[0]?.value).toBe(20);
  });
});

describe('in-memory PGlitePool', () => {
  it('is a fresh cluster every time, even when opened together with others', async () => {
    const pools = await Promise.all([1, 2, 3].map(() => PGlitePool.open(undefined)));
    try {
      await Promise.all(pools.map((pool, index) => pool.query(`create table only_in_${index} (n int)`)));
      const later = await PGlitePool.open(undefined);
      pools.push(later);
      for (const pool of pools) {
        const { rows } = await pool.query<{ name: string }>(
          "select table_name as name from information_schema.tables where table_schema = 'public' order by 1",
        );
        const index = pools.indexOf(pool);
        expect(rows.map((row) => row.name)).toEqual(index < 3 ? [`only_in_${index}`] : []);
      }
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
  });
});
