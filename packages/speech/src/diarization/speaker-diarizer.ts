import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { SpeechError } from '../speech-error.js';
import { defaultDiarizationTuning, type DiarizationTuning } from './onnx-speaker-diarizer.js';
import { ThreadedSpeakerDiarizer } from './threaded-speaker-diarizer.js';
import { diarizationModelFileName, diarizationModelNames } from './diarization-models.js';

/**
 * Who speaks when, in seconds. Speakers are numbered 0, 1, 2… in order of first appearance; turns
 * of two speakers may overlap (overlapped speech gets both speakers).
 */
export interface SpeakerTurn {
  speaker: number;
  start: number;
  end: number;
}

export interface DiarizationOptions {
  /** The exact number of speakers, when the caller knows it. */
  speakers?: number;
  minSpeakers?: number;
  maxSpeakers?: number;
  signal?: AbortSignal;
}

export interface SpeakerDiarizer {
  /** samples: 16 kHz mono float32 of the whole recording. */
  diarize(samples: Float32Array, options?: DiarizationOptions): Promise<SpeakerTurn[]>;
  close(): Promise<void>;
}

export interface SpeakerDiarizerOptions {
  /** ONNX Runtime intra-op threads; 1 by default so whisper.cpp keeps its cores. */
  threads?: number;
  /** The pipeline's settings; the defaults were chosen on the dev set (bench:diarization). */
  tuning?: Partial<DiarizationTuning>;
}

/**
 * Loads both diarization networks from `modelsDir`. Throws SpeechError SPEECH_UNAVAILABLE naming
 * `verbatim models download …` when a model file is missing, INVALID_MODEL when one is not usable.
 */
export async function openSpeakerDiarizer(
  modelsDir: string,
  options: SpeakerDiarizerOptions = {},
): Promise<SpeakerDiarizer> {
  await requireDiarizationModels(modelsDir);
  const threads = options.threads ?? 1;
  if (!Number.isInteger(threads) || threads < 1)
    throw new RangeError(`diarization threads must be a positive integer, got ${threads}`);
  return ThreadedSpeakerDiarizer.start(modelsDir, threads, {
    ...defaultDiarizationTuning,
    ...options.tuning,
  });
}

/** The missing-model error, checked before anything is loaded. */
export async function requireDiarizationModels(modelsDir: string): Promise<void> {
  const missing: string[] = [];
  for (const name of diarizationModelNames) {
    try {
      await access(join(modelsDir, diarizationModelFileName(name)));
    } catch {
      missing.push(name);
    }
  }
  if (missing.length === 0) return;
  throw new SpeechError(
    'SPEECH_UNAVAILABLE',
    `speaker diarization needs ${missing.map(diarizationModelFileName).join(' and ')} in ${modelsDir}: run \`verbatim models download ${missing.join(' ')}\``,
    { missingModels: missing, modelsDir },
  );
}
