// faster-whisper, the free peer anyone can run on the same Whisper weights, beside Verbatim in
// bench:speech. Installed like the contract test's schemathesis (scripts/contract-test.sh): pinned
// (bench/speech-peer/requirements.txt), from PyPI, into the gitignored .venv-bench/, the first time
// the benchmark runs and whenever the pins change; never in CI.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '@verbatim/speech/test-support';

const venv = path.join(repoRoot, '.venv-bench');
const peerDir = path.join(repoRoot, 'bench', 'speech-peer');
const requirements = path.join(peerDir, 'requirements.txt');
const python = path.join(venv, 'bin', 'python');

export interface PeerRun {
  /** Text of each file, in the order given. */
  texts: string[];
  /** Model load and every file, timed inside the peer's process. */
  seconds: number;
  /** CPU seconds of the peer's process (every thread) over the same span. */
  cpuSeconds: number;
  loadSeconds: number;
}

function run(command: string, args: string[]): string {
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed (${result.status}): ${result.stderr}`);
  return result.stdout;
}

/** Installs the venv when missing or out of date; returns the peer's model folder per ggml model name. */
export function preparePeer(): Record<string, string> {
  const installed = path.join(venv, 'requirements.txt');
  const wanted = readFileSync(requirements, 'utf8');
  if (!existsSync(installed) || readFileSync(installed, 'utf8') !== wanted) {
    console.log(`Installing faster-whisper and its models into ${path.relative(repoRoot, venv)} (pinned)…`);
    run('python3', ['-m', 'venv', venv]);
    run(path.join(venv, 'bin', 'pip'), [
      'install',
      '--quiet',
      '--disable-pip-version-check',
      '-r',
      requirements,
    ]);
    copyFileSync(requirements, installed);
  }
  return JSON.parse(run(python, [path.join(peerDir, 'prepare_models.py')])) as Record<string, string>;
}

function withoutOpenMpSettings(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !/^(OMP_|GOMP_|KMP_)/.test(name)));
}

/** faster-whisper on `files` in one process, as a user runs a folder: load the model, then each file. */
export function runPeer(request: {
  modelDir: string;
  language: string;
  threads: number;
  beamSize: number;
  files: string[];
}): Promise<PeerRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(python, [path.join(peerDir, 'transcribe.py')], {
      stdio: ['pipe', 'pipe', 'pipe'],
      // The peer runs with its own OpenMP defaults, whatever ours are set to.
      env: withoutOpenMpSettings(process.env),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`faster-whisper failed (${code}): ${stderr.slice(-2000)}`));
      try {
        resolve(JSON.parse(stdout) as PeerRun);
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    child.stdin.end(JSON.stringify(request));
  });
}
