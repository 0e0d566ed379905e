import { join } from 'node:path';
import ort from 'onnxruntime-node';
import { createOnnxSession, missingTensors } from '../onnx-session.js';
import { SpeechError } from '../speech-error.js';
import { diarizationModelFileName, embeddingModelName, segmentationModelName } from './diarization-models.js';
import { FBANK_BINS, FBANK_SHIFT_SAMPLES, kaldiFbank } from './kaldi-fbank.js';
import {
  decodePowerset,
  FRAME_STEP_SAMPLES,
  frameCentreSample,
  LOCAL_SPEAKERS,
  SEGMENTATION_SAMPLE_RATE,
  WINDOW_FRAMES,
  WINDOW_SAMPLES,
} from './segmentation-frames.js';
import { assignWindowSpeakers, clusterSpeakers, normalised } from './speaker-clustering.js';
import type { DiarizationOptions, SpeakerDiarizer, SpeakerTurn } from './speaker-diarizer.js';
import { reconstructTurns, type LabelledWindow } from './speaker-reconstruction.js';

/** The pipeline's settings, chosen on the dev set as a whole (see bench/diarization.ts). */
export interface DiarizationTuning {
  /** Probability from which a local speaker counts as speaking (see decodePowerset). */
  activityThreshold: number;
  /** Hop between the 10 s segmentation windows: smaller is finer and slower. */
  windowStepSeconds: number;
  /** Cosine distance under which two CAM++ embeddings are taken for one speaker. */
  clusteringThreshold: number;
  minClusterSize: number;
  /** A local speaker's embedding takes part in clustering from this much speech alone in its window. */
  minCleanSeconds: number;
  /** Less speech than this in a window gives no embedding at all. */
  minEmbeddingSeconds: number;
  /** The embedding network sees at most this much of a local speaker per window (its cost is linear). */
  maxEmbeddingSeconds: number;
}

export const defaultDiarizationTuning: DiarizationTuning = {
  activityThreshold: 0.35,
  windowStepSeconds: 2.5,
  clusteringThreshold: 0.4,
  minClusterSize: 12,
  minCleanSeconds: 2,
  minEmbeddingSeconds: 0.4,
  maxEmbeddingSeconds: 10,
};

const MAX_SPEAKERS = 20;
const frameSeconds = FRAME_STEP_SAMPLES / SEGMENTATION_SAMPLE_RATE;

/** What the networks found in a recording, before clustering. */
export interface RecordingAnalysis {
  durationSeconds: number;
  windows: Array<{ startFrame: number; activity: Uint8Array }>;
  embeddings: LocalEmbedding[];
}

interface LocalEmbedding {
  window: number;
  local: number;
  embedding: Float32Array;
  cleanSeconds: number;
}

async function loadSession(modelsDir: string, name: string, threads: number, input: string, output: string) {
  const path = join(modelsDir, diarizationModelFileName(name));
  let session: ort.InferenceSession;
  try {
    session = await createOnnxSession(path, threads);
  } catch (error) {
    throw new SpeechError(
      'INVALID_MODEL',
      `${path} is not a valid ONNX model: run \`verbatim models download ${name}\` to replace it`,
      { path, cause: error instanceof Error ? error.message : String(error) },
    );
  }
  if (missingTensors(session, [input], [output]).length > 0) {
    await session.release();
    throw new SpeechError('INVALID_MODEL', `${path} is not the ${name} network (inputs or outputs differ)`, {
      path,
      inputs: session.inputNames,
      outputs: session.outputNames,
    });
  }
  return session;
}

/**
 * pyannote's diarization pipeline on ONNX Runtime: segmentation-3.0 over sliding 10 s windows
 * (up to 3 local speakers per window, overlap included), one CAM++ embedding per local speaker
 * and window, agglomerative clustering of the embeddings, then the windows stitched back into
 * turns. Inference runs on ONNX Runtime's own threads, so the event loop stays free.
 */
export class OnnxSpeakerDiarizer implements SpeakerDiarizer {
  private constructor(
    private readonly segmentation: ort.InferenceSession,
    private readonly embedding: ort.InferenceSession,
    private readonly tuning: DiarizationTuning,
  ) {}

  static async open(
    modelsDir: string,
    threads: number,
    tuning: DiarizationTuning,
  ): Promise<OnnxSpeakerDiarizer> {
    const segmentation = await loadSession(modelsDir, segmentationModelName, threads, 'input', 'output');
    try {
      const embedding = await loadSession(modelsDir, embeddingModelName, threads, 'x', 'embedding');
      return new OnnxSpeakerDiarizer(segmentation, embedding, tuning);
    } catch (error) {
      await segmentation.release();
      throw error;
    }
  }

  async diarize(samples: Float32Array, options: DiarizationOptions = {}): Promise<SpeakerTurn[]> {
    const bounds = speakerBounds(options);
    return this.cluster(await this.analyse(samples, options.signal), bounds);
  }

  /** The networks' part: local speakers of every window and their embeddings (the costly part). */
  async analyse(samples: Float32Array, signal?: { readonly aborted: boolean }): Promise<RecordingAnalysis> {
    const durationSeconds = samples.length / SEGMENTATION_SAMPLE_RATE;
    const stepFrames = Math.max(
      1,
      Math.round((this.tuning.windowStepSeconds * SEGMENTATION_SAMPLE_RATE) / FRAME_STEP_SAMPLES),
    );
    const stepSamples = stepFrames * FRAME_STEP_SAMPLES;
    const windowCount =
      samples.length === 0
        ? 0
        : samples.length <= WINDOW_SAMPLES
          ? 1
          : Math.ceil((samples.length - WINDOW_SAMPLES) / stepSamples) + 1;
    const windows: RecordingAnalysis['windows'] = [];
    const embeddings: LocalEmbedding[] = [];
    for (let window = 0; window < windowCount; window++) {
      throwIfCancelled(signal);
      const start = window * stepSamples;
      const chunk = new Float32Array(WINDOW_SAMPLES);
      chunk.set(samples.subarray(start, Math.min(start + WINDOW_SAMPLES, samples.length)));
      const activity = await this.segment(chunk);
      windows.push({ startFrame: window * stepFrames, activity });
      embeddings.push(...(await this.embedLocalSpeakers(window, chunk, activity)));
    }
    throwIfCancelled(signal);
    return { durationSeconds, windows, embeddings };
  }

  /** The cheap part: clustering and stitching, which the tuning's threshold changes. */
  cluster(
    analysis: RecordingAnalysis,
    bounds: { minClusters: number; maxClusters: number },
    threshold = this.tuning.clusteringThreshold,
  ): SpeakerTurn[] {
    const { embeddings, windows } = analysis;
    const clean = embeddings.filter((item) => item.cleanSeconds >= this.tuning.minCleanSeconds);
    const speakerCentroids = clusterSpeakers(
      (clean.length > 0 ? clean : embeddings).map((item) => item.embedding),
      { threshold, minClusterSize: this.tuning.minClusterSize, ...bounds },
    );
    const labelled: LabelledWindow[] = windows.map((window, index) => {
      const locals = embeddings.filter((item) => item.window === index);
      const assigned = assignWindowSpeakers(
        locals.map((item) => item.embedding),
        speakerCentroids,
      );
      const speakers = new Array<number>(LOCAL_SPEAKERS).fill(-1);
      locals.forEach((item, i) => (speakers[item.local] = assigned[i] ?? -1));
      return { ...window, speakers };
    });
    return reconstructTurns(labelled, speakerCentroids.length, analysis.durationSeconds);
  }

  private async segment(chunk: Float32Array): Promise<Uint8Array> {
    const result = await this.segmentation.run({
      input: new ort.Tensor('float32', chunk, [1, 1, WINDOW_SAMPLES]),
    });
    const output = result.output;
    if (!output) throw new SpeechError('TRANSCRIPTION_FAILED', 'the segmentation network gave no output');
    return decodePowerset(output.data as Float32Array, this.tuning.activityThreshold);
  }

  /** One embedding per local speaker that speaks long enough, from its frames alone when it can. */
  private async embedLocalSpeakers(
    window: number,
    chunk: Float32Array,
    activity: Uint8Array,
  ): Promise<LocalEmbedding[]> {
    const features = kaldiFbank(chunk);
    const featureFrames = features.length / FBANK_BINS;
    // The segmentation frame each feature frame falls in (their centres).
    const segmentationFrame = Int32Array.from({ length: featureFrames }, (_, f) =>
      Math.min(
        WINDOW_FRAMES - 1,
        Math.max(0, Math.round((f * FBANK_SHIFT_SAMPLES + 200 - frameCentreSample(0)) / FRAME_STEP_SAMPLES)),
      ),
    );
    const result: LocalEmbedding[] = [];
    for (let local = 0; local < LOCAL_SPEAKERS; local++) {
      let activeFrames = 0;
      let cleanFrames = 0;
      for (let frame = 0; frame < WINDOW_FRAMES; frame++) {
        if (!activity[frame * LOCAL_SPEAKERS + local]) continue;
        activeFrames++;
        let others = 0;
        for (let other = 0; other < LOCAL_SPEAKERS; other++)
          others += activity[frame * LOCAL_SPEAKERS + other] ?? 0;
        if (others === 1) cleanFrames++;
      }
      if (activeFrames * frameSeconds < this.tuning.minEmbeddingSeconds) continue;
      const cleanOnly = cleanFrames * frameSeconds >= this.tuning.minEmbeddingSeconds;
      const selected: number[] = [];
      const limit = Math.round(
        (this.tuning.maxEmbeddingSeconds * SEGMENTATION_SAMPLE_RATE) / FBANK_SHIFT_SAMPLES,
      );
      for (let f = 0; f < featureFrames && selected.length < limit; f++) {
        const frame = segmentationFrame[f] ?? 0;
        if (!activity[frame * LOCAL_SPEAKERS + local]) continue;
        if (cleanOnly) {
          let others = 0;
          for (let other = 0; other < LOCAL_SPEAKERS; other++)
            others += activity[frame * LOCAL_SPEAKERS + other] ?? 0;
          if (others !== 1) continue;
        }
        selected.push(f);
      }
      if (selected.length < 10) continue;
      const input = new Float32Array(selected.length * FBANK_BINS);
      const mean = new Float64Array(FBANK_BINS);
      selected.forEach((f, row) => {
        for (let bin = 0; bin < FBANK_BINS; bin++) {
          const value = features[f * FBANK_BINS + bin] ?? 0;
          input[row * FBANK_BINS + bin] = value;
          mean[bin] = (mean[bin] ?? 0) + value / selected.length;
        }
      });
      for (let i = 0; i < input.length; i++) input[i] = (input[i] ?? 0) - (mean[i % FBANK_BINS] ?? 0);
      const output = await this.embedding.run({
        x: new ort.Tensor('float32', input, [1, selected.length, FBANK_BINS]),
      });
      const vector = output.embedding?.data;
      if (!(vector instanceof Float32Array)) continue;
      result.push({ window, local, embedding: normalised(vector), cleanSeconds: cleanFrames * frameSeconds });
    }
    return result;
  }

  async close(): Promise<void> {
    await Promise.all([this.segmentation.release(), this.embedding.release()]);
  }
}

export function speakerBounds(options: DiarizationOptions): { minClusters: number; maxClusters: number } {
  const check = (name: string, value: number | undefined): void => {
    if (value !== undefined && (!Number.isInteger(value) || value < 1 || value > MAX_SPEAKERS)) {
      throw new RangeError(`${name} must be an integer from 1 to ${MAX_SPEAKERS}, got ${value}`);
    }
  };
  check('speakers', options.speakers);
  check('minSpeakers', options.minSpeakers);
  check('maxSpeakers', options.maxSpeakers);
  if (options.speakers !== undefined) return { minClusters: options.speakers, maxClusters: options.speakers };
  const minClusters = options.minSpeakers ?? 1;
  const maxClusters = options.maxSpeakers ?? MAX_SPEAKERS;
  if (minClusters > maxClusters)
    throw new RangeError(`minSpeakers (${minClusters}) is above maxSpeakers (${maxClusters})`);
  return { minClusters, maxClusters };
}

function throwIfCancelled(signal: { readonly aborted: boolean } | undefined): void {
  if (signal?.aborted) throw new SpeechError('CANCELLED', 'speaker diarization was cancelled');
}
