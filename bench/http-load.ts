// HTTP load benchmark: starts the built server (PGlite, or PostgreSQL when DATABASE_URL is set),
// loads the liveness route and the database-backed readiness route, and prints the figures.
// Run with `npm run bench` (builds first). Options: BENCH_SECONDS (default 10), BENCH_CONNECTIONS (10).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function waitUntilReady(base: string, server: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`server exited with code ${server.exitCode}`);
    try {
      if ((await fetch(`${base}/api/v1/ready`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('server did not become ready within 60 s');
}

async function load(title: string, url: string) {
  const result = await autocannon({ url, connections, duration: seconds });
  const non2xx = result.non2xx + result.errors + result.timeouts;
  return {
    route: title,
    'requests/s': Math.round(result.requests.average),
    'p50 ms': result.latency.p50,
    'p99 ms': result.latency.p99,
    'max ms': result.latency.max,
    requests: result.requests.total,
    'non-2xx/errors': non2xx,
  };
}

async function main(): Promise<void> {
  const port = await freePort();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'verbatim-bench-'));
  const server = spawn(process.execPath, [path.join(root, 'apps/server/dist/cli.js'), 'serve'], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      // Measure the request path, not the limiter refusing the load generator.
      RATE_LIMIT_MAX: '100000000',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitUntilReady(base, server);
    const database = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';
    console.log(
      `Verbatim HTTP benchmark: ${connections} connections, ${seconds} s per route, database ${database}`,
    );
    const rows = [
      await load('GET /api/v1/health (liveness)', `${base}/api/v1/health`),
      await load('GET /api/v1/ready (2 database queries)', `${base}/api/v1/ready`),
    ];
    console.table(rows);
    if (rows.some((row) => row['non-2xx/errors'] > 0)) process.exitCode = 1;
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
