import { spawn } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';

import { SpeechError } from '../speech-error.js';
import { ffmpegBinariesFromEnv, type FfmpegBinaries } from './ffmpeg-binaries.js';
import { sanitiseFfmpegReason, saysNoAudioStream } from './ffmpeg-reason.js';
import { Float32Chunker } from './float32-chunker.js';
import { assertReadableNonEmptyFile } from './input-file.js';
import { ffmpegAudioInputArgs, unreadableMediaError } from './probe-media.js';
import { ffmpegRawPcmInputArgs, type RawPcmFormat } from './raw-pcm.js';
import { cancelledError, spawnError } from './run-process.js';

/** What the recognisers eat: 16 kHz mono float32. */
export const speechSampleRate = 16_000;

export interface DecodeAudioOptions {
  signal?: AbortSignal;
  /**
   * Budget for the time spent waiting for ffmpeg, summed over the iteration. The consumer's own
   * time between two chunks does not count: a slow recogniser never makes decoding time out.
   * Default: {@link defaultDecodeTimeoutMs} of `expectedDurationSeconds`.
   */
  timeoutMs?: number;
  /** The probed duration, if known: scales the default timeout. */
  expectedDurationSeconds?: number;
  /** Output sample rate, default 16 000. */
  sampleRate?: number;
  /** The input is headerless PCM in this format (it cannot be probed); default: a recording ffmpeg recognises. */
  rawPcm?: RawPcmFormat;
  /** Samples per yielded chunk (the last one may be shorter). Default: one second. */
  chunkSamples?: number;
  /**
   * Called when ffmpeg reported a problem but audio still came out (a damaged frame, a file cut
   * short): decoding finishes normally with what was decodable. The reason is sanitised.
   */
  onWarning?: (reason: string) => void;
  binaries?: FfmpegBinaries;
}

/**
 * ffmpeg decodes hundreds of times faster than real time; this allows 4× real time on top of two
 * minutes, and half an hour when the length is unknown, so only a stuck process ever reaches it.
 */
export function defaultDecodeTimeoutMs(expectedDurationSeconds?: number): number {
  if (expectedDurationSeconds === undefined || !Number.isFinite(expectedDurationSeconds)) return 30 * 60_000;
  return 120_000 + Math.max(0, expectedDurationSeconds) * 250;
}

const maxStderrChars = 64_000;

/**
 * Decodes any recording ffmpeg reads (a file path, or a byte stream fed to ffmpeg's stdin) to mono
 * float32 at 16 kHz, yielded in chunks as ffmpeg produces them. The consumer's pace drives
 * ffmpeg through pipe back-pressure, so a long file is never held whole in memory.
 *
 * ffmpeg is started on the first `next()` and is always killed and reaped when the iteration ends
 * for any reason: completion, an error, `break`/`return` in the consumer, abort (→ CANCELLED) or
 * timeout. A stream given as input is consumed and destroyed.
 *
 * Errors (SpeechError): INVALID_FILE (empty, unreadable, not media, nothing decodable),
 * UNSUPPORTED_MEDIA (no audio track), CANCELLED, SPEECH_UNAVAILABLE (ffmpeg missing). A file that
 * fails part-way after some audio came out ends normally, with `onWarning`.
 */
export async function* decodeAudio(
  input: string | NodeJS.ReadableStream,
  options: DecodeAudioOptions = {},
): AsyncGenerator<Float32Array, void, undefined> {
  const binaries = options.binaries ?? ffmpegBinariesFromEnv();
  const sampleRate = options.sampleRate ?? speechSampleRate;
  if (!Number.isInteger(sampleRate) || sampleRate < 1000 || sampleRate > 384_000) {
    throw new RangeError(`sampleRate must be an integer between 1000 and 384000, got ${sampleRate}`);
  }
  const chunker = new Float32Chunker(options.chunkSamples ?? sampleRate);
  let remainingWaitMs = options.timeoutMs ?? defaultDecodeTimeoutMs(options.expectedDurationSeconds);
  if (options.signal?.aborted) throw cancelledError();

  const inputPath = typeof input === 'string' ? path.resolve(input) : undefined;
  if (inputPath !== undefined) await assertReadableNonEmptyFile(inputPath);
  if (options.signal?.aborted) throw cancelledError();
  const inputUrl = inputPath !== undefined ? `file:${inputPath}` : 'pipe:0';

  const child = spawn(
    binaries.ffmpegPath,
    [
      ...(options.rawPcm ? ffmpegRawPcmInputArgs(inputUrl, options.rawPcm) : ffmpegAudioInputArgs(inputUrl)),
      '-vn',
      '-sn',
      '-dn',
      '-ac',
      '1',
      '-ar',
      String(sampleRate),
      '-f',
      'f32le',
      'pipe:1',
    ],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal }));
  });

  // Abort, timeout, a spawn failure or an unreadable input stream end the iteration: `stop` fails
  // the wait in progress, if any. (Not a Promise.race against one long-lived promise: each race
  // would leave a reaction on it holding that step's Buffer, retaining every byte decoded.)
  const state: { failure?: SpeechError } = {};
  let interruptWait: ((error: SpeechError) => void) | undefined;
  const stop = (error: SpeechError) => {
    state.failure ??= error;
    child.kill('SIGKILL');
    interruptWait?.(state.failure);
  };
  const onAbort = () => stop(cancelledError());
  options.signal?.addEventListener('abort', onAbort, { once: true });
  child.on('error', (error: NodeJS.ErrnoException) => stop(spawnError(binaries.ffmpegPath, error)));

  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => {
    if (stderr.length < maxStderrChars) stderr += text;
  });

  let inputBytes = 0;
  const inputStream = typeof input === 'string' ? undefined : input;
  // A file is read by ffmpeg itself: its stdin is closed at once.
  if (!inputStream) child.stdin.end();
  if (inputStream) {
    // ffmpeg may stop reading early (an error, or all it needs): the broken pipe is expected then.
    child.stdin.on('error', () => undefined);
    inputStream.on('data', (chunk: Buffer | string) => {
      inputBytes += chunk.length;
    });
    inputStream.on('error', (error: NodeJS.ErrnoException) =>
      stop(
        new SpeechError('INVALID_FILE', 'The file could not be read.', {
          reason: error.code ?? error.message,
        }),
      ),
    );
    inputStream.pipe(child.stdin);
  }

  /** Awaits `step` while ffmpeg works, charged to the timeout budget; abort and timeout win the race. */
  const waitForFfmpeg = <T>(step: Promise<T>): Promise<T> => {
    if (state.failure) return Promise.reject(state.failure);
    return new Promise<T>((resolve, reject) => {
      const started = performance.now();
      let settled = false;
      const settle = () => {
        settled = true;
        clearTimeout(timer);
        interruptWait = undefined;
        remainingWaitMs -= performance.now() - started;
      };
      const timer = setTimeout(
        () =>
          stop(
            new SpeechError('INVALID_FILE', 'Decoding the recording took too long.', {
              reason: 'timeout',
              timeoutMs: options.timeoutMs ?? defaultDecodeTimeoutMs(options.expectedDurationSeconds),
            }),
          ),
        Math.max(0, remainingWaitMs),
      );
      interruptWait = (error) => {
        if (settled) return;
        settle();
        reject(error);
      };
      step.then(
        (value) => {
          if (settled) return;
          settle();
          // A stop that came while the step settled (abort, timeout) wins.
          if (state.failure) reject(state.failure);
          else resolve(value);
        },
        (error: unknown) => {
          if (settled) return;
          settle();
          reject(state.failure ?? (error instanceof Error ? error : new Error(String(error))));
        },
      );
    });
  };

  const output = child.stdout[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let samplesOut = 0;
  try {
    for (;;) {
      if (state.failure) throw state.failure;
      const step = await waitForFfmpeg(output.next());
      if (step.done) break;
      for (const chunk of chunker.push(step.value)) {
        samplesOut += chunk.length;
        yield chunk;
      }
    }
    const { code, signal } = await waitForFfmpeg(exited);
    const last = chunker.flush();
    if (last) samplesOut += last.length;
    const reason = sanitiseFfmpegReason(stderr, inputPath);
    if (samplesOut === 0)
      throw nothingDecodedError({ stderr, reason, code, signal, inputBytes, inputStream });
    if (last) yield last;
    if (code !== 0 || reason) options.onWarning?.(reason || `ffmpeg exited with ${signal ?? `code ${code}`}`);
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    if (inputStream) {
      inputStream.unpipe(child.stdin);
      if (inputStream instanceof Readable) inputStream.destroy();
    }
    // Ends the read side of ffmpeg's stdout so that 'close' can fire even if nobody reads it any more.
    child.stdout.destroy();
    await exited;
  }
}

function nothingDecodedError(outcome: {
  stderr: string;
  reason: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  inputBytes: number;
  inputStream: NodeJS.ReadableStream | undefined;
}): SpeechError {
  if (outcome.inputStream && outcome.inputBytes === 0)
    return new SpeechError('INVALID_FILE', 'The file is empty.');
  if (saysNoAudioStream(outcome.stderr))
    return new SpeechError('UNSUPPORTED_MEDIA', 'The file has no audio track.');
  if (outcome.code === 0) {
    return new SpeechError('INVALID_FILE', 'No audio could be decoded from the file.', {
      ...(outcome.reason ? { reason: outcome.reason } : {}),
    });
  }
  return unreadableMediaError(outcome.stderr, outcome.reason || `ffmpeg exited with code ${outcome.code}`);
}
