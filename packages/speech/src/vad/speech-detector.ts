import { VAD_FRAME_SAMPLES, VAD_SAMPLE_RATE } from './silero-vad.js';

/**
 * A stretch of speech, in samples at 16 kHz from the start of the recording (integers, exact,
 * multiples of the 512-sample frame except where clamped to the end of the audio).
 */
export interface SpeechRegion {
  /** First sample of the region, padding included. */
  startSample: number;
  /** One past the last sample of the region, padding included. */
  endSample: number;
  /** Where the voice itself starts (no padding): pauses between regions are measured between these. */
  speechStartSample: number;
  /** Where the voice itself ends (no padding). */
  speechEndSample: number;
}

/** A region that has begun (its speech is long enough to count) and is not emitted yet. */
export interface OpenSpeechRegion {
  startSample: number;
  speechStartSample: number;
  /** The voice heard so far ends here: the region will end at or after this sample. */
  speechEndSample: number;
}

export interface SpeechDetectorOptions {
  /** A frame with at least this probability is speech and can open a region. */
  threshold?: number;
  /** A frame below this probability is silence and can close a region (threshold − 0.15 by default). */
  negativeThreshold?: number;
  /** Regions with less voice than this are dropped (clicks, coughs, a door). */
  minSpeechMs?: number;
  /**
   * Silence needed to close a region. Batch transcription wants short pauses (100 ms: every
   * pause is a possible cut); live streaming uses ~500 ms as the end of an utterance.
   */
  minSilenceMs?: number;
  /** Audio kept on each side of the voice, halved between two regions closer than twice this. */
  speechPadMs?: number;
}

/** Silero's reference values (`get_speech_timestamps`), with a wider padding for whisper. */
export const DEFAULT_SPEECH_DETECTOR_OPTIONS: Required<Omit<SpeechDetectorOptions, 'negativeThreshold'>> = {
  threshold: 0.5,
  minSpeechMs: 250,
  minSilenceMs: 100,
  speechPadMs: 200,
};

/** The live-streaming setting: an utterance ends after half a second of silence. */
export const ENDPOINT_SILENCE_MS = 500;

interface TriggeredRegion {
  speechStartSample: number;
  /** First frame of the current run of silence, if the voice has paused. */
  silenceStartSample: number | undefined;
  /** Set once the voice has lasted long enough to count; from then on the start is final. */
  startSample: number | undefined;
}

interface ClosedRegion {
  startSample: number;
  speechStartSample: number;
  speechEndSample: number;
}

/**
 * Speech regions from per-frame probabilities, incrementally: the same hysteresis as Silero's
 * `get_speech_timestamps` (enter at `threshold`, leave below `negativeThreshold` after
 * `minSilenceMs`, drop regions shorter than `minSpeechMs`, pad each side), but fed frame by
 * frame so that batch files and live streams use one state machine. For the same probabilities it
 * produces the reference's regions.
 *
 * A region is emitted once it is final: its silence has lasted `minSilenceMs` and its end padding
 * is known (the next region cannot start within twice the padding, or has started and shares the
 * gap). With `minSilenceMs` ≥ 2 × padding (live endpoints) that is the very frame that closes it.
 */
export class SpeechDetector {
  private readonly threshold: number;
  /** Below this probability a frame is silence for sure (it can close a region). */
  readonly negativeThreshold: number;
  private readonly minSpeechSamples: number;
  private readonly minSilenceSamples: number;
  /** Audio kept on each side of the voice (samples). */
  readonly padSamples: number;

  private samplesScored = 0;
  private triggered: TriggeredRegion | undefined;
  /** Voice over, end padding not known yet. */
  private closed: ClosedRegion | undefined;
  /** End of the last emitted region: no later region may start before it. */
  private lastEndSample = 0;
  private flushed = false;
  /** Known once flushed: the last frame may reach past it. */
  private audioEnd = Infinity;

  constructor(options: SpeechDetectorOptions = {}) {
    const settings = { ...DEFAULT_SPEECH_DETECTOR_OPTIONS, ...definedOnly(options) };
    this.threshold = settings.threshold;
    this.negativeThreshold = options.negativeThreshold ?? Math.max(settings.threshold - 0.15, 0.01);
    if (!(this.threshold > 0 && this.threshold <= 1) || !(this.negativeThreshold < this.threshold)) {
      throw new RangeError(
        `Speech thresholds must satisfy 0 < negativeThreshold < threshold ≤ 1 (got ${this.negativeThreshold}, ${this.threshold})`,
      );
    }
    for (const [name, value] of Object.entries({
      minSpeechMs: settings.minSpeechMs,
      minSilenceMs: settings.minSilenceMs,
      speechPadMs: settings.speechPadMs,
    })) {
      if (!Number.isFinite(value) || value < 0) throw new RangeError(`${name} must be ≥ 0, got ${value}`);
    }
    this.minSpeechSamples = msToSamples(settings.minSpeechMs);
    this.minSilenceSamples = msToSamples(settings.minSilenceMs);
    this.padSamples = msToSamples(settings.speechPadMs);
  }

  /** Samples covered by the probabilities received so far (frames × 512). */
  get position(): number {
    return this.samplesScored;
  }

  /** The region that has begun and is not emitted yet, if any (for live "speech started"). */
  get openRegion(): OpenSpeechRegion | undefined {
    if (this.closed) return { ...this.closed };
    const region = this.triggered;
    if (region?.startSample === undefined) return undefined;
    return {
      startSample: region.startSample,
      speechStartSample: region.speechStartSample,
      speechEndSample: region.silenceStartSample ?? this.samplesScored,
    };
  }

  /** Start (padding included) of the region still open, if any. */
  get openRegionStart(): number | undefined {
    return this.openRegion?.startSample;
  }

  /**
   * The first sample that a region not yet emitted may still include. Audio before it will never
   * be part of speech again: a caller keeping audio for its regions may drop it.
   */
  get earliestPendingSample(): number {
    if (this.closed) return this.closed.startSample;
    const region = this.triggered;
    if (region)
      return region.startSample ?? Math.max(this.lastEndSample, region.speechStartSample - this.padSamples);
    return Math.max(this.lastEndSample, this.samplesScored - this.padSamples);
  }

  /** Feeds the next frames' probabilities; returns the regions that became final, in order. */
  push(probabilities: ArrayLike<number>): SpeechRegion[] {
    if (this.flushed) throw new Error('SpeechDetector.push after flush: create a new detector per recording');
    const emitted: SpeechRegion[] = [];
    for (let i = 0; i < probabilities.length; i++) {
      this.step(probabilities[i] ?? 0, emitted);
    }
    return emitted;
  }

  /**
   * End of the audio after `totalSamples` samples. `lastProbabilities` are those of the frames
   * that reach past the end (the zero-padded last frame): fed here, they cannot make a region
   * longer than the audio. Closes what is open (a region still speaking ends with the audio) and
   * returns the last regions, clamped to the audio.
   */
  flush(
    totalSamples: number = this.samplesScored,
    lastProbabilities: ArrayLike<number> = [],
  ): SpeechRegion[] {
    if (this.flushed) return [];
    this.audioEnd = totalSamples;
    const emitted = this.push(lastProbabilities);
    this.flushed = true;
    const region = this.triggered;
    if (region && totalSamples - region.speechStartSample > this.minSpeechSamples) {
      // As in the reference: speech running at the end of the audio ends with the audio.
      this.confirm(region, emitted);
      this.closed = {
        startSample: region.startSample ?? region.speechStartSample,
        speechStartSample: region.speechStartSample,
        speechEndSample: totalSamples,
      };
    }
    this.triggered = undefined;
    if (this.closed) this.emitClosed(this.padSamples, emitted);
    return emitted.map((speech) => clampRegion(speech, totalSamples));
  }

  private step(probability: number, emitted: SpeechRegion[]): void {
    const frameStart = this.samplesScored;
    this.samplesScored += VAD_FRAME_SAMPLES;
    const region = this.triggered;
    if (region) {
      if (probability >= this.threshold) {
        region.silenceStartSample = undefined;
      } else if (probability < this.negativeThreshold) {
        region.silenceStartSample ??= frameStart;
        if (frameStart - region.silenceStartSample >= this.minSilenceSamples) {
          this.close(region, region.silenceStartSample, emitted);
        }
      }
    } else if (probability >= this.threshold) {
      this.triggered = {
        speechStartSample: frameStart,
        silenceStartSample: undefined,
        startSample: undefined,
      };
    }
    this.settle(emitted);
  }

  private close(region: TriggeredRegion, speechEndSample: number, emitted: SpeechRegion[]): void {
    this.triggered = undefined;
    if (speechEndSample - region.speechStartSample <= this.minSpeechSamples) return;
    this.confirm(region, emitted);
    this.closed = {
      startSample: region.startSample ?? region.speechStartSample,
      speechStartSample: region.speechStartSample,
      speechEndSample,
    };
  }

  /** Emits what has become final after this frame. */
  private settle(emitted: SpeechRegion[]): void {
    const region = this.triggered;
    if (region && region.startSample === undefined) {
      const heardUntil = region.silenceStartSample ?? Math.min(this.samplesScored, this.audioEnd);
      const heard = heardUntil - region.speechStartSample;
      if (heard > this.minSpeechSamples) this.confirm(region, emitted);
    }
    if (this.closed) {
      // The next region cannot start before this: if that is far enough, the end padding is whole.
      const nextSpeechStart = this.triggered?.speechStartSample ?? this.samplesScored;
      if (nextSpeechStart - this.closed.speechEndSample >= 2 * this.padSamples) {
        this.emitClosed(this.padSamples, emitted);
      }
    }
  }

  /** The region's voice is long enough: its start becomes final, and so does the previous end. */
  private confirm(region: TriggeredRegion, emitted: SpeechRegion[]): void {
    if (region.startSample !== undefined) return;
    let startPad = this.padSamples;
    if (this.closed) {
      const gap = region.speechStartSample - this.closed.speechEndSample;
      // Two regions closer than twice the padding share the gap, as in the reference.
      startPad = gap < 2 * this.padSamples ? Math.floor(gap / 2) : this.padSamples;
      this.emitClosed(startPad, emitted);
    }
    region.startSample = Math.max(this.lastEndSample, region.speechStartSample - startPad, 0);
  }

  private emitClosed(endPad: number, emitted: SpeechRegion[]): void {
    const closed = this.closed;
    if (!closed) return;
    this.closed = undefined;
    const endSample = closed.speechEndSample + endPad;
    this.lastEndSample = endSample;
    emitted.push({ ...closed, endSample });
  }
}

function msToSamples(ms: number): number {
  return Math.round((ms * VAD_SAMPLE_RATE) / 1000);
}

function clampRegion(region: SpeechRegion, totalSamples: number): SpeechRegion {
  return {
    startSample: Math.min(region.startSample, totalSamples),
    endSample: Math.min(region.endSample, totalSamples),
    speechStartSample: Math.min(region.speechStartSample, totalSamples),
    speechEndSample: Math.min(region.speechEndSample, totalSamples),
  };
}

function definedOnly<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<T>;
}
