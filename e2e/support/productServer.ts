import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { repoRoot, serverCliPath } from './paths.js';

// A loaded machine (several test runs side by side) has taken a minute to start the product.
const readyTimeoutMs = 180_000;
const stopTimeoutMs = 10_000;
/** The speech models beside the checkout (../shared/models), as tests and benchmarks read them. */
export const sharedModelsDir = resolve(repoRoot, '../shared/models');
/** Enough of the server's output to explain a failed start without flooding the report. */
const maxOutputChars = 20_000;

export interface ProductServer {
  /** http://localhost:PORT: a secure origin, as microphone and crypto.randomUUID need. */
  baseUrl: string;
  /** The server's DATA_DIR; its outbox/ holds every e-mail sent, as .eml files. */
  dataDir: string;
  stop: () => Promise<void>;
  /** SIGKILL, as a crash: no shutdown code runs and the data directory stays for a restart. */
  kill: () => Promise<void>;
}

export interface ProductServerOptions {
  /** Chosen beforehand when something else must know the address first (a provider's redirect URI). */
  port: number;
  /** Configuration beyond the embedded defaults. */
  env: Record<string, string>;
  /** The data directory of a server started before (a restart); a fresh one unless given. */
  dataDir: string;
}

/** Starts the built product (`verbatim serve`) with a fresh data directory, on a free port unless told. */
export async function startProductServer(
  options: Partial<ProductServerOptions> = {},
): Promise<ProductServer> {
  const port = options.port ?? (await freePort());
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'verbatim-e2e-')));
  const child = spawn(process.execPath, [serverCliPath, 'serve'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      // Journeys never reach the network: no model download at start-up.
      SPEECH_MODEL_AUTO_DOWNLOAD: 'false',
      // The shared models, read where they are (never copied): live transcription journeys need them.
      ...(existsSync(sharedModelsDir) ? { SPEECH_MODELS_DIR: sharedModelsDir } : {}),
      // English by the small English model: the journeys (and the contract test) prove the
      // product's flows on real decodes, not the default model's accuracy (bench:speech measures
      // that), and two journeys at once share two cores. Other languages keep the default model.
      SPEECH_MODEL_EN: 'tiny.en-q8_0',
      // Every journey registers its own accounts from the one loopback address.
      REGISTRATIONS_PER_HOUR_PER_IP: '1000',
      // ...and signs in from it: two files at once, with the accounts they verify, went past 30 a minute.
      SIGNIN_REQUESTS_PER_MINUTE_PER_IP: '1000',
      ...options.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const record = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-maxOutputChars);
  };
  child.stdout.on('data', record);
  child.stderr.on('data', record);

  const stop = async () => {
    await stopProcess(child);
    await rm(dataDir, { recursive: true, force: true });
  };

  try {
    await waitUntilReady(`http://127.0.0.1:${port}/api/v1/ready`, child);
  } catch (error) {
    await stop();
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`The product server did not become ready: ${reason}\n--- server output ---\n${output}`);
  }
  const kill = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGKILL');
    await exited;
  };
  return { baseUrl: productBaseUrl(port), dataDir, stop, kill };
}

export const productBaseUrl = (port: number) => `http://localhost:${port}`;

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('could not read the port of the probe server'));
      });
    });
  });
}

async function waitUntilReady(readyUrl: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + readyTimeoutMs;
  let lastProblem = 'no answer yet';
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`it exited (code ${child.exitCode}, signal ${child.signalCode})`);
    }
    try {
      const response = await fetch(readyUrl, { signal: AbortSignal.timeout(2_000) });
      if (response.status === 200) return;
      lastProblem = `GET /api/v1/ready answered ${response.status}: ${await response.text()}`;
    } catch (error) {
      lastProblem = error instanceof Error ? error.message : String(error);
    }
    await sleep(250);
  }
  throw new Error(`no 200 from ${readyUrl} within ${readyTimeoutMs / 1000} s (last: ${lastProblem})`);
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const stoppedInTime = await Promise.race([exited.then(() => true), sleep(stopTimeoutMs).then(() => false)]);
  if (!stoppedInTime) {
    child.kill('SIGKILL');
    await exited;
  }
}
