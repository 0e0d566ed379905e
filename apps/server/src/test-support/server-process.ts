import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const sourceDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(sourceDir, 'cli.ts');

/** The environment of a local, offline server for tests: an ephemeral port, no console, no downloads. */
export function serverEnv(dataDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    CONSOLE_DIR: path.join(dataDir, 'no-console'),
    SPEECH_MODEL_AUTO_DOWNLOAD: 'false',
    ...extra,
  };
}

export interface ChildResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
}

/** A `verbatim <command>` child process run from source, with only the given environment. */
export class CliProcess {
  readonly child: ChildProcess;
  readonly exited: Promise<ChildResult>;
  #output = '';

  constructor(args: string[], env: Record<string, string>) {
    this.child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', cli, ...args], {
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout?.on('data', (chunk: Buffer) => (this.#output += chunk.toString()));
    this.child.stderr?.on('data', (chunk: Buffer) => (this.#output += chunk.toString()));
    this.exited = new Promise((resolve, reject) => {
      this.child.on('error', reject);
      this.child.on('close', (code, signal) => resolve({ code, signal, output: this.#output }));
    });
  }

  get pid(): number {
    if (this.child.pid === undefined) throw new Error('the process did not start');
    return this.child.pid;
  }

  /** Everything the process wrote so far, stdout and stderr interleaved. */
  get output(): string {
    return this.#output;
  }

  /** Waits for the process to end; kills it and fails after the timeout. */
  async finished(timeoutMs = 120_000): Promise<ChildResult> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        this.child.kill('SIGKILL');
        reject(new Error(`verbatim did not finish within ${timeoutMs} ms:\n${this.#output}`));
      }, timeoutMs);
    });
    try {
      return await Promise.race([this.exited, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** A `verbatim serve` process, answering HTTP at `baseUrl`. */
export interface ServerProcess {
  process: CliProcess;
  pid: number;
  baseUrl: string;
  /** SIGTERM, then waits for the graceful exit. */
  stop(): Promise<ChildResult>;
  /** SIGKILL: no shutdown code runs, as in a crash or an OOM kill. */
  kill(): Promise<ChildResult>;
}

/** Starts `verbatim serve` and waits until it listens (its log line names the address). */
export async function startServerProcess(
  env: Record<string, string>,
  timeoutMs = 120_000,
): Promise<ServerProcess> {
  const server = new CliProcess(['serve'], env);
  const deadline = Date.now() + timeoutMs;
  let exited: ChildResult | null = null;
  void server.exited.then((result) => (exited = result));
  for (;;) {
    const address = listeningAddress(server.output);
    if (address) {
      return {
        process: server,
        pid: server.pid,
        baseUrl: address,
        stop: () => {
          server.child.kill('SIGTERM');
          return server.finished(60_000);
        },
        kill: () => {
          server.child.kill('SIGKILL');
          return server.finished(10_000);
        },
      };
    }
    if (exited) throw new Error(`verbatim serve exited before listening:\n${server.output}`);
    if (Date.now() > deadline) {
      server.child.kill('SIGKILL');
      throw new Error(`verbatim serve did not listen within ${timeoutMs} ms:\n${server.output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function listeningAddress(output: string): string | null {
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const entry = JSON.parse(line) as { address?: unknown };
      if (typeof entry.address === 'string') return entry.address;
    } catch {
      // A line still being written.
    }
  }
  return null;
}
