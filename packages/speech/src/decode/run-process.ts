import { spawn } from 'node:child_process';

import { SpeechError } from '../speech-error.js';
import { ffmpegInstallHint } from './ffmpeg-binaries.js';

export interface ProcessResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunProcessOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  /** Output beyond this many characters per stream is dropped: a hostile file cannot fill memory through ffprobe. */
  maxOutputChars?: number;
}

const defaultMaxOutputChars = 4_000_000;

/**
 * Runs a short-lived tool (ffprobe, `ffmpeg -version`, a stream-copy pass) to completion and
 * collects its output. The child is killed on timeout or abort, and the promise settles only once
 * the child has exited, so that no process outlives the call.
 */
export function runProcess(
  command: string,
  args: string[],
  options: RunProcessOptions,
): Promise<ProcessResult> {
  if (options.signal?.aborted) return Promise.reject(cancelledError());
  const maxChars = options.maxOutputChars ?? defaultMaxOutputChars;
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let failure: SpeechError | undefined;
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (text: string) => {
      if (stdout.length < maxChars) stdout += text;
    });
    child.stderr.on('data', (text: string) => {
      if (stderr.length < maxChars) stderr += text;
    });

    const stop = (error: SpeechError) => {
      failure ??= error;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(
      () =>
        stop(
          new SpeechError('INVALID_FILE', 'Reading the file took too long.', {
            tool: command,
            timeoutMs: options.timeoutMs,
          }),
        ),
      options.timeoutMs,
    );
    const onAbort = () => stop(cancelledError());
    options.signal?.addEventListener('abort', onAbort, { once: true });

    child.on('error', (error: NodeJS.ErrnoException) => {
      // A spawn failure emits 'error' and then 'close'; remember why for the 'close' handler.
      failure ??= spawnError(command, error);
    });
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (failure) reject(failure);
      else resolve({ exitCode, signal, stdout, stderr });
    });
  });
}

export function cancelledError(): SpeechError {
  return new SpeechError('CANCELLED', 'Decoding was cancelled.');
}

/** The binary is missing or not executable: the engine cannot work at all on this machine. */
export function spawnError(command: string, error: NodeJS.ErrnoException): SpeechError {
  const tool = command.split('/').pop() ?? command;
  const missing = error.code === 'ENOENT' || error.code === 'EACCES';
  return new SpeechError(
    'SPEECH_UNAVAILABLE',
    missing
      ? `${tool} is not installed or not executable. ${ffmpegInstallHint}`
      : `${tool} could not be started.`,
    { tool, reason: error.code ?? error.message },
  );
}
