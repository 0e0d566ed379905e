import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMainThread } from 'node:worker_threads';
import { SpeechError } from '../speech-error.js';

/** The types of packages/speech/native (src/lib.rs): napi-rs turns snake_case into camelCase. */
export interface NativeTranscribeOptions {
  /** ISO 639-1 code, or "auto" to detect. */
  language?: string;
  threads?: number;
  prompt?: string;
  /**
   * Text the decoder continues from, after its language and task (OpenAI Whisper's `prefix`): the
   * words of the audio the window begins with, a segment from 0 s to `prefixEnd` (seconds).
   */
  prefix?: string;
  prefixEnd?: number;
  /** Encoder context in frames (50 per second of audio); 0 = the model's full 30 s. */
  audioContext?: number;
  temperature?: number;
  /** Step of whisper.cpp's own temperature fallback; 0 disables it. */
  temperatureIncrement?: number;
  beamSize?: number;
  bestOf?: number;
  suppressNonSpeech?: boolean;
  noSpeechThreshold?: number;
  entropyThreshold?: number;
  logprobThreshold?: number;
  singleSegment?: boolean;
  maxTokensPerSegment?: number;
}

export interface NativeWord {
  text: string;
  /** Milliseconds from the start of the samples given. */
  start: number;
  end: number;
  probability: number;
}

export interface NativeSegment {
  start: number;
  end: number;
  text: string;
  noSpeechProbability: number;
  averageLogProbability: number;
  words: NativeWord[];
}

export interface NativeRecognition {
  language: string;
  segments: NativeSegment[];
  aborted: boolean;
}

export interface NativeModelInfo {
  multilingual: boolean;
  vocabularySize: number;
  audioContext: number;
  textContext: number;
  melBins: number;
  modelType: string;
}

export interface NativeWhisperModel {
  info(): NativeModelInfo;
  transcribe(
    samples: Float32Array,
    options?: NativeTranscribeOptions,
    abortFlag?: Int32Array,
  ): NativeRecognition;
}

export interface NativeWhisperAddon {
  WhisperModel: new (modelPath: string) => NativeWhisperModel;
  languages(): { id: number; code: string; name: string }[];
  systemInfo(): string;
}

const here = path.dirname(fileURLToPath(import.meta.url));
/** src/recogniser or dist/recogniser → packages/speech/native. */
export const nativeAddonPath = path.resolve(here, '../../native/verbatim-whisper.node');

let loaded: NativeWhisperAddon | undefined;

/**
 * whisper.cpp's threads are an OpenMP team (libgomp) that meets at a barrier after every step of
 * the network. By default a thread waiting there spins for about 300 000 rounds before it sleeps:
 * on a quiet machine that saves a wake-up, but when another process holds one of the cores the
 * spinning thread burns the time slice its partner needs, and every barrier waits for the
 * scheduler. On this 2-core machine shared with other work (load 21), 2 files of English and 2 of
 * French took 321 s instead of 55 s with passive waiting (2.0 CPU seconds per audio second on
 * French instead of 0.35; faster-whisper 45 s on the same files): a collapse, not a slowdown.
 * libgomp reads the policy once, when the addon loads it, so it is set here first, in the main
 * thread (whose environment worker threads and the dynamic loader share), unless the operator
 * chose one (OMP_WAIT_POLICY or GOMP_SPINCOUNT).
 */
export function useOpenMpWaitPolicy(env: NodeJS.ProcessEnv = process.env): void {
  if (!isMainThread || env.OMP_WAIT_POLICY !== undefined || env.GOMP_SPINCOUNT !== undefined) return;
  env.OMP_WAIT_POLICY = 'passive';
  // A brief spin (about 0.1 ms) before sleeping: the steps of one decode follow each other within
  // microseconds, and a team of two threads that slept between them decoded slower than one
  // thread alone (a 9 s window with beam 5: 5.0 s on two threads, 3.7 s on one, 2.4 s on two with
  // this spin). Far below a time slice, so a busy core still costs no collapse.
  env.GOMP_SPINCOUNT = String(openMpSpinCount);
}

/** Rounds of spinning at an OpenMP barrier before sleeping (libgomp: ~100 000 per millisecond). */
export const openMpSpinCount = 10_000;

/** Loads the whisper.cpp addon once per thread; a missing build is a clear SPEECH_UNAVAILABLE. */
export function loadNativeAddon(): NativeWhisperAddon {
  if (loaded) return loaded;
  useOpenMpWaitPolicy();
  if (!existsSync(nativeAddonPath)) {
    throw new SpeechError(
      'SPEECH_UNAVAILABLE',
      'The speech engine is not built: run `npm run build` (it compiles whisper.cpp with cargo).',
    );
  }
  loaded = createRequire(import.meta.url)(nativeAddonPath) as NativeWhisperAddon;
  return loaded;
}
