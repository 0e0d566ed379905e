import { RetainedAudio } from './retained-audio.js';
import { VAD_FRAME_SAMPLES, VAD_SAMPLE_RATE, type VadStream } from './silero-vad.js';
import {
  DEFAULT_SPEECH_DETECTOR_OPTIONS,
  SpeechDetector,
  type SpeechDetectorOptions,
  type SpeechRegion,
} from './speech-detector.js';

/**
 * Whisper's encoder sees at most 30 s, and the engine gives it at most 1488 frames (29.76 s, the
 * fastest length near it: see encoderContextFor): a window stops short of that, with a little
 * room after its last word.
 */
export const MAX_WINDOW_SECONDS = 29.5;
/**
 * Silence longer than this between two regions ends the window: the next one starts at the next
 * region, so long silences are never decoded. Shorter pauses stay inside, as whisper decodes
 * better with the natural flow of speech around them.
 */
export const MAX_GAP_INSIDE_WINDOW_SECONDS = 2;
/** A pause at least this long is a good place to cut a window that grows past its limit. */
export const PREFERRED_CUT_PAUSE_SECONDS = 0.3;
/**
 * Cuts are looked for in the last part of a full window (at most a third of it), so that windows
 * stay long.
 */
export const CUT_SEARCH_SECONDS = 10;

/**
 * A window that ends at a long silence (or at the end of the recording) reaches on while the voice
 * after its last region scores at least this, for at least `MIN_WEAK_VOICE_SECONDS`: a voice
 * whispered, said softly or trailing off scores 0.2-0.45 until its last word ends, under the 0.35
 * that closes a region (a whispered clip of the dev set: 0.23-0.44 for 1 s after its region, where
 * "here" is said, lost), while silence, noise and hum stay under 0.06. Only the window's end
 * moves, not the regions, so pauses and cuts are as the detector finds them.
 */
const WEAK_VOICE_PROBABILITY = 0.2;
/** Shorter weak voice after a region is its fading last sound, already in the padding. */
const MIN_WEAK_VOICE_SECONDS = 0.25;
/** A weak voice goes on across dips under `WEAK_VOICE_PROBABILITY` shorter than this (3 frames). */
const WEAK_VOICE_DIP_FRAMES = 3;

/** Seconds from the start of the recording. */
export interface TimeRange {
  start: number;
  end: number;
}

/** A piece of the recording for the recogniser: speech, with its natural pauses, at most 29.5 s. */
export interface SpeechWindow {
  /** Seconds from the start of the recording. */
  start: number;
  end: number;
  /** 16 kHz mono PCM from `start` to `end`. */
  samples: Float32Array;
  /** The speech regions (padding included) inside the window, in seconds of the recording. */
  speechRegions: TimeRange[];
}

export interface SpeechWindowerOptions {
  maxWindowSeconds?: number;
  maxGapInsideWindowSeconds?: number;
  /** Hysteresis settings; the batch defaults (100 ms silence closes a region) suit windowing. */
  detector?: SpeechDetectorOptions;
}

/** A region of the current window; the last one may still be open (its end is a lower bound). */
interface WindowUnit extends SpeechRegion {
  open: boolean;
}

/**
 * Cuts a recording, pushed as chunks of 16 kHz mono PCM, into recognition windows: only speech
 * regions (with padding), long silences left out, at most `maxWindowSeconds` each, cut at pauses.
 * Only the audio of the window being assembled is held, so memory stays flat however long the
 * recording is. The windows do not depend on how the audio is chunked.
 *
 * Over-long windows are cut, in this order of preference:
 * 1. between two regions in the last `CUT_SEARCH_SECONDS` before the limit, at the pause closest
 *    to the limit among those of at least `PREFERRED_CUT_PAUSE_SECONDS`;
 * 2. otherwise at the longest pause between regions in that last part;
 * 3. otherwise between regions anywhere before the limit (the latest such pause);
 * 4. otherwise inside the region that crosses the limit, in the middle of its lowest-probability
 *    frame in the last part; if even that frame sounds like speech (≥ threshold), at the limit.
 *
 * The audio before the first region of a recording is kept when that region starts within
 * `maxGapInsideWindowSeconds` of the start, as a pause between two regions would be: a recording
 * that starts mid-sentence has no silence before its first words, and Silero, starting from an
 * empty state, often scores them as speech only some hundreds of milliseconds in (clips cut inside
 * the speech of the dev set and of meetings: first region up to 0.5 s late), so the padding alone
 * left those words out of the window.
 *
 * Likewise the audio after the last region is kept when the recording ends within
 * `maxGapInsideWindowSeconds` of it (and the window stays within the limit): a last word said
 * softly, whispered or trailing off fades under the threshold before it ends (a whispered clip
 * lost its last word, "here", 0.4 s after the region), and a recording may stop mid-word. And a
 * window that ends at a long silence reaches on through a weak voice after its last region
 * (`WEAK_VOICE_PROBABILITY`), wherever it is in the recording.
 *
 * Short blips are handled by the detector alone: a region needs more than `minSpeechMs` (250 ms)
 * of voice. Nothing else is dropped, so a lone short answer ("Yes.") still reaches the recogniser.
 */
export class SpeechWindower {
  private readonly detector: SpeechDetector;
  private readonly audio = new RetainedAudio();
  private readonly maxWindowSamples: number;
  private readonly maxGapSamples: number;
  private readonly cutSearchSamples: number;
  private readonly threshold: number;

  /** Per-frame probabilities from frame `firstProbabilityFrame` on. */
  private probabilities = new Float32Array(4096);
  private probabilityCount = 0;
  private firstProbabilityFrame = 0;

  /** The closed regions of the window being assembled. */
  private regions: SpeechRegion[] = [];
  /** Audio before this sample has been handed out in a window cut inside a region. */
  private clipSample = 0;
  private samplesSeen = 0;
  private speechSamples = 0;
  private peakProbability = 0;
  private windowsEmitted = 0;
  private finished = false;
  private queue: Promise<unknown> = Promise.resolve();

  /** `vad` must be a fresh stream, used by this windower only. */
  constructor(
    private readonly vad: VadStream,
    options: SpeechWindowerOptions = {},
  ) {
    if (vad.frames !== 0)
      throw new Error('SpeechWindower needs a fresh VadStream (reset it or create a new one)');
    const maxWindowSeconds = options.maxWindowSeconds ?? MAX_WINDOW_SECONDS;
    const maxGapSeconds = options.maxGapInsideWindowSeconds ?? MAX_GAP_INSIDE_WINDOW_SECONDS;
    if (!(maxWindowSeconds >= 1 && maxWindowSeconds <= MAX_WINDOW_SECONDS)) {
      throw new RangeError(
        `maxWindowSeconds must be between 1 and ${MAX_WINDOW_SECONDS}, got ${maxWindowSeconds}`,
      );
    }
    if (!(maxGapSeconds >= 0))
      throw new RangeError(`maxGapInsideWindowSeconds must be ≥ 0, got ${maxGapSeconds}`);
    this.maxWindowSamples = Math.round(maxWindowSeconds * VAD_SAMPLE_RATE);
    this.maxGapSamples = Math.round(maxGapSeconds * VAD_SAMPLE_RATE);
    this.cutSearchSamples = Math.round(Math.min(CUT_SEARCH_SECONDS, maxWindowSeconds / 3) * VAD_SAMPLE_RATE);
    this.detector = new SpeechDetector(options.detector);
    this.threshold = options.detector?.threshold ?? DEFAULT_SPEECH_DETECTOR_OPTIONS.threshold;
  }

  /** Seconds of audio pushed so far. */
  get durationSeconds(): number {
    return this.samplesSeen / VAD_SAMPLE_RATE;
  }

  /** Seconds of speech (padding included) in the windows handed out so far. */
  get speechSeconds(): number {
    return this.speechSamples / VAD_SAMPLE_RATE;
  }

  /**
   * Whether some frame so far sounded possibly like a voice (at least the detector's silence level,
   * `negativeThreshold`), even if no region came of it. Silence, noise, hum and tones stay far below
   * (peaks under 0.06 in Silero); a sentence in falsetto peaked at 0.67 without making a region.
   */
  get heardPossibleSpeech(): boolean {
    return this.peakProbability >= this.detector.negativeThreshold;
  }

  /** Samples of audio held right now (the window being assembled and what may join it). */
  get heldSamples(): number {
    return this.audio.heldSamples;
  }

  /** The windows that this chunk completes (often none). */
  push(chunk: Float32Array): Promise<SpeechWindow[]> {
    if (!(chunk instanceof Float32Array)) {
      return Promise.reject(new TypeError('Audio chunks must be Float32Arrays of 16 kHz mono PCM'));
    }
    return this.enqueue(async () => {
      if (this.finished) throw new Error('SpeechWindower.push after finish');
      this.audio.append(chunk);
      this.samplesSeen += chunk.length;
      const probabilities = await this.vad.probabilities(chunk);
      this.storeProbabilities(probabilities);
      const windows: SpeechWindow[] = [];
      for (const region of this.detector.push(probabilities)) this.addRegion(region, windows);
      this.settleWithOpenRegion(windows);
      this.dropUnneededAudio();
      return windows;
    });
  }

  /** End of the recording: the last windows. */
  finish(): Promise<SpeechWindow[]> {
    return this.enqueue(async () => {
      if (this.finished) return [];
      this.finished = true;
      const tail = await this.vad.flush();
      this.storeProbabilities(tail);
      const windows: SpeechWindow[] = [];
      for (const region of this.detector.flush(this.samplesSeen, tail)) this.addRegion(region, windows);
      this.extendThroughWeakVoice();
      this.extendToTheEnd();
      if (this.regions.length > 0) this.emit(this.regions.length, windows);
      this.dropUnneededAudio();
      return windows;
    });
  }

  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    const result = this.queue.then(work);
    this.queue = result.catch(() => undefined);
    return result;
  }

  private addRegion(detected: SpeechRegion, windows: SpeechWindow[]): void {
    if (detected.endSample <= this.clipSample) return;
    const region = this.withLeadingAudio(clipRegion(detected, this.clipSample));
    const last = this.regions.at(-1);
    if (last && region.startSample - last.endSample > this.maxGapSamples) this.emitAtSilence(windows);
    this.regions.push(region);
    this.cutWhileTooLong(undefined, windows);
  }

  /** After a chunk: close the window after a long silence, or cut it if the open region overflows it. */
  private settleWithOpenRegion(windows: SpeechWindow[]): void {
    const last = this.regions.at(-1);
    const nextStart = Math.max(this.clipSample, this.detector.earliestPendingSample);
    if (last && nextStart - last.endSample > this.maxGapSamples) this.emitAtSilence(windows);
    const open = this.detector.openRegion;
    if (!open) return;
    // The open region will end at or after the voice heard so far: cut only once that is certain,
    // which is what makes the windows independent of the chunk size.
    const speechStartSample = Math.max(open.speechStartSample, this.clipSample);
    const speechEndSample = Math.max(open.speechEndSample, speechStartSample);
    this.cutWhileTooLong(
      {
        ...this.withLeadingAudio({
          startSample: Math.max(open.startSample, this.clipSample),
          endSample: speechEndSample,
          speechStartSample,
          speechEndSample,
        }),
        open: true,
      },
      windows,
    );
  }

  /** The first region of the recording starts at its first sample if it begins soon after it. */
  private withLeadingAudio(region: SpeechRegion): SpeechRegion {
    if (!this.keepsLeadingAudio() || this.regions.length > 0 || region.startSample > this.maxGapSamples) {
      return region;
    }
    return { ...region, startSample: 0 };
  }

  /** The window ends at a long silence: all its regions, its end through a weak voice after them. */
  private emitAtSilence(windows: SpeechWindow[]): void {
    this.extendThroughWeakVoice();
    this.emit(this.regions.length, windows);
  }

  /**
   * The last region's end moves past a weak voice after it (see `WEAK_VOICE_PROBABILITY`), within
   * the gap that ends a window and the window's limit. Called when the probabilities of that whole
   * gap are known (a region or the pending voice is beyond it, or the recording has ended), so the
   * windows still do not depend on the chunk size.
   */
  private extendThroughWeakVoice(): void {
    const first = this.regions[0];
    const last = this.regions.at(-1);
    if (!first || !last) return;
    const limit = Math.min(
      last.speechEndSample + this.maxGapSamples,
      first.startSample + this.maxWindowSamples,
      this.samplesSeen,
    );
    let voiceEnd = last.speechEndSample;
    let dip = 0;
    for (let frame = Math.floor(last.speechEndSample / VAD_FRAME_SAMPLES); ; frame++) {
      const frameEnd = (frame + 1) * VAD_FRAME_SAMPLES;
      const probability = this.probabilityAt(frame);
      if (frameEnd > limit || probability === undefined) break;
      if (probability >= WEAK_VOICE_PROBABILITY) {
        voiceEnd = frameEnd;
        dip = 0;
      } else if (++dip >= WEAK_VOICE_DIP_FRAMES) break;
    }
    if (voiceEnd - last.speechEndSample < MIN_WEAK_VOICE_SECONDS * VAD_SAMPLE_RATE) return;
    const endSample = Math.min(limit, voiceEnd + this.detector.padSamples);
    if (endSample > last.endSample) this.regions[this.regions.length - 1] = { ...last, endSample };
  }

  /** At the end: the last region takes the rest of the recording when that is short (see the class comment). */
  private extendToTheEnd(): void {
    const first = this.regions[0];
    const last = this.regions.at(-1);
    if (!first || !last) return;
    if (this.samplesSeen - last.endSample > this.maxGapSamples) return;
    if (this.samplesSeen - first.startSample > this.maxWindowSamples) return;
    this.regions[this.regions.length - 1] = { ...last, endSample: this.samplesSeen };
  }

  /** Nothing of the recording has been handed out or cut yet: its start may join the first window. */
  private keepsLeadingAudio(): boolean {
    return this.windowsEmitted === 0 && this.clipSample === 0;
  }

  private cutWhileTooLong(open: WindowUnit | undefined, windows: SpeechWindow[]): void {
    for (;;) {
      const units: WindowUnit[] = this.regions.map((region) => ({ ...region, open: false }));
      if (open) units.push(open);
      const first = units[0];
      const last = units.at(-1);
      if (!first || !last || last.endSample - first.startSample <= this.maxWindowSamples) return;
      const limit = first.startSample + this.maxWindowSamples;
      const boundary = this.chooseBoundary(units, limit);
      if (boundary !== undefined) {
        this.emit(boundary + 1, windows);
        continue;
      }
      // One region crosses the limit: cut inside it.
      const cut = this.cutInsideSpeech(first.startSample, limit);
      const crossing = this.regions[0];
      if (crossing) {
        this.regions[0] = {
          ...crossing,
          endSample: cut,
          speechEndSample: Math.min(crossing.speechEndSample, cut),
        };
        this.emit(1, windows);
        this.regions.unshift(clipRegion(crossing, cut));
      } else if (open) {
        this.regions = [{ ...open, endSample: cut, speechEndSample: Math.min(open.speechEndSample, cut) }];
        this.emit(1, windows);
        this.clipSample = cut;
        open = {
          ...open,
          startSample: cut,
          speechStartSample: Math.max(open.speechStartSample, cut),
          speechEndSample: Math.max(open.speechEndSample, cut),
          endSample: Math.max(open.endSample, cut),
        };
      }
    }
  }

  /** The index of the region after which to cut (see the class comment), if any fits. */
  private chooseBoundary(units: WindowUnit[], limit: number): number | undefined {
    const searchFrom = limit - this.cutSearchSamples;
    const preferredPause = PREFERRED_CUT_PAUSE_SECONDS * VAD_SAMPLE_RATE;
    let latestPreferred: number | undefined;
    let longestInSearch: { index: number; pause: number } | undefined;
    let latestAnywhere: number | undefined;
    for (let index = 0; index + 1 < units.length; index++) {
      const unit = units[index];
      const next = units[index + 1];
      if (!unit || !next || unit.endSample > limit) break;
      const pause = next.speechStartSample - unit.speechEndSample;
      latestAnywhere = index;
      if (unit.endSample < searchFrom) continue;
      if (pause >= preferredPause) latestPreferred = index;
      if (!longestInSearch || pause >= longestInSearch.pause) longestInSearch = { index, pause };
    }
    return latestPreferred ?? longestInSearch?.index ?? latestAnywhere;
  }

  /** A cut in (start, limit]: the middle of the least speech-like frame near the limit. */
  private cutInsideSpeech(start: number, limit: number): number {
    const from = Math.max(start + 1, limit - this.cutSearchSamples);
    const half = VAD_FRAME_SAMPLES / 2;
    let best: { sample: number; probability: number } | undefined;
    const firstFrame = Math.max(Math.ceil((from - half) / VAD_FRAME_SAMPLES), this.firstProbabilityFrame);
    for (let frame = firstFrame; frame * VAD_FRAME_SAMPLES + half <= limit; frame++) {
      const probability = this.probabilityAt(frame);
      if (probability === undefined) break;
      if (!best || probability <= best.probability)
        best = { sample: frame * VAD_FRAME_SAMPLES + half, probability };
    }
    if (!best || best.probability >= this.threshold) return limit;
    return best.sample;
  }

  /** Hands out the first `count` regions as one window. */
  private emit(count: number, windows: SpeechWindow[]): void {
    const regions = this.regions.slice(0, count);
    this.regions = this.regions.slice(count);
    const first = regions[0];
    const last = regions.at(-1);
    if (!first || !last) return;
    for (const region of regions) this.speechSamples += region.endSample - region.startSample;
    this.windowsEmitted += 1;
    windows.push({
      start: first.startSample / VAD_SAMPLE_RATE,
      end: last.endSample / VAD_SAMPLE_RATE,
      samples: this.audio.slice(first.startSample, last.endSample),
      speechRegions: regions.map((region) => ({
        start: region.startSample / VAD_SAMPLE_RATE,
        end: region.endSample / VAD_SAMPLE_RATE,
      })),
    });
  }

  /** The stored probability of a frame of the recording, if it is still held. */
  private probabilityAt(frame: number): number | undefined {
    const index = frame - this.firstProbabilityFrame;
    return index >= 0 && index < this.probabilityCount ? this.probabilities[index] : undefined;
  }

  private storeProbabilities(probabilities: Float32Array): void {
    for (const probability of probabilities)
      this.peakProbability = Math.max(this.peakProbability, probability);
    const needed = this.probabilityCount + probabilities.length;
    if (needed > this.probabilities.length) {
      const grown = new Float32Array(Math.max(needed, this.probabilities.length * 2));
      grown.set(this.probabilities.subarray(0, this.probabilityCount));
      this.probabilities = grown;
    }
    this.probabilities.set(probabilities, this.probabilityCount);
    this.probabilityCount = needed;
  }

  /** Forgets audio and probabilities that no window can include any more. */
  private dropUnneededAudio(): void {
    const pending = this.finished
      ? this.samplesSeen
      : Math.max(this.clipSample, Math.min(this.detector.earliestPendingSample, this.samplesSeen));
    let keepFrom = Math.min(this.regions[0]?.startSample ?? pending, pending);
    // A first region may still start close enough to the beginning to take the audio before it.
    if (this.keepsLeadingAudio() && keepFrom <= this.maxGapSamples) keepFrom = 0;
    this.audio.dropBefore(keepFrom);
    const dropFrames = Math.floor(keepFrom / VAD_FRAME_SAMPLES) - this.firstProbabilityFrame;
    if (dropFrames > 0) {
      this.probabilities.copyWithin(0, dropFrames, this.probabilityCount);
      this.probabilityCount -= dropFrames;
      this.firstProbabilityFrame += dropFrames;
    }
  }
}

/** The part of a region from `sample` on. */
function clipRegion(region: SpeechRegion, sample: number): SpeechRegion {
  const speechStartSample = Math.max(region.speechStartSample, sample);
  return {
    startSample: Math.max(region.startSample, sample),
    endSample: region.endSample,
    speechStartSample,
    speechEndSample: Math.max(region.speechEndSample, speechStartSample),
  };
}
