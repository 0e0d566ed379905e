import { describe, expect, it } from 'vitest';
import { VAD_FRAME_SAMPLES } from './silero-vad.js';
import { ENDPOINT_SILENCE_MS, SpeechDetector, type SpeechRegion } from './speech-detector.js';
import { seededRandom } from '../test-support/seeded-random.js';

const FRAME = VAD_FRAME_SAMPLES;

interface ReferenceOptions {
  threshold: number;
  minSpeechMs: number;
  minSilenceMs: number;
  speechPadMs: number;
}

/**
 * A line-by-line port of Silero's `get_speech_timestamps` (v5, utils_vad.py, without
 * `max_speech_duration_s`) over precomputed probabilities: the batch oracle the incremental
 * detector must agree with.
 */
function referenceSpeechTimestamps(
  probabilities: number[],
  audioLength: number,
  { threshold, minSpeechMs, minSilenceMs, speechPadMs }: ReferenceOptions,
): { start: number; end: number }[] {
  const minSpeechSamples = (16000 * minSpeechMs) / 1000;
  const minSilenceSamples = (16000 * minSilenceMs) / 1000;
  const speechPadSamples = (16000 * speechPadMs) / 1000;
  const negThreshold = Math.max(threshold - 0.15, 0.01);
  let triggered = false;
  const speeches: { start: number; end: number }[] = [];
  let current: { start?: number; end?: number } = {};
  let tempEnd = 0;
  probabilities.forEach((probability, i) => {
    if (probability >= threshold && tempEnd) tempEnd = 0;
    if (probability >= threshold && !triggered) {
      triggered = true;
      current.start = FRAME * i;
      return;
    }
    if (probability < negThreshold && triggered) {
      if (!tempEnd) tempEnd = FRAME * i;
      if (FRAME * i - tempEnd < minSilenceSamples) return;
      current.end = tempEnd;
      if (current.end - (current.start ?? 0) > minSpeechSamples) {
        speeches.push({ start: current.start ?? 0, end: current.end });
      }
      current = {};
      tempEnd = 0;
      triggered = false;
    }
  });
  if (current.start !== undefined && audioLength - current.start > minSpeechSamples) {
    speeches.push({ start: current.start, end: audioLength });
  }
  speeches.forEach((speech, i) => {
    if (i === 0) speech.start = Math.trunc(Math.max(0, speech.start - speechPadSamples));
    const next = speeches[i + 1];
    if (next) {
      const silence = next.start - speech.end;
      if (silence < 2 * speechPadSamples) {
        speech.end += Math.floor(silence / 2);
        next.start = Math.trunc(Math.max(0, next.start - Math.floor(silence / 2)));
      } else {
        speech.end = Math.trunc(Math.min(audioLength, speech.end + speechPadSamples));
        next.start = Math.trunc(Math.max(0, next.start - speechPadSamples));
      }
    } else {
      speech.end = Math.trunc(Math.min(audioLength, speech.end + speechPadSamples));
    }
  });
  return speeches;
}

/** Probabilities shaped like a VAD's: runs of speech and silence with jitter and dips. */
function syntheticProbabilities(frames: number, seed: number): number[] {
  const random = seededRandom(seed);
  const out: number[] = [];
  let speaking = random() < 0.5;
  while (out.length < frames) {
    const run = 1 + Math.floor(random() ** 2 * 60);
    for (let i = 0; i < run && out.length < frames; i++) {
      const level = speaking ? 0.55 + random() * 0.45 : random() * 0.3;
      // Some frames land in the hysteresis band or dip, as real probabilities do.
      out.push(random() < 0.1 ? 0.3 + random() * 0.3 : level);
    }
    speaking = !speaking;
  }
  return out;
}

function runIncrementally(
  detector: SpeechDetector,
  probabilities: number[],
  audioLength: number,
  random: () => number,
): SpeechRegion[] {
  const regions: SpeechRegion[] = [];
  // The last frame reaches past the end of the audio: it goes with the flush.
  const complete = probabilities.slice(0, -1);
  let offset = 0;
  while (offset < complete.length) {
    const size = Math.floor(random() * 40);
    regions.push(...detector.push(complete.slice(offset, offset + size)));
    offset += size;
  }
  regions.push(...detector.flush(audioLength, probabilities.slice(-1)));
  return regions;
}

describe('SpeechDetector', () => {
  it("finds the reference's regions, however the probabilities are chunked", () => {
    const settings: ReferenceOptions[] = [
      { threshold: 0.5, minSpeechMs: 250, minSilenceMs: 100, speechPadMs: 200 },
      { threshold: 0.5, minSpeechMs: 250, minSilenceMs: ENDPOINT_SILENCE_MS, speechPadMs: 200 },
      { threshold: 0.6, minSpeechMs: 100, minSilenceMs: 50, speechPadMs: 30 },
    ];
    let compared = 0;
    for (const options of settings) {
      for (let seed = 1; seed <= 40; seed++) {
        const probabilities = syntheticProbabilities(2000 + seed * 37, seed);
        // The audio ends inside the last frame, as a recording does.
        const audioLength = probabilities.length * FRAME - 1 - (seed % 7) * 50;
        const expected = referenceSpeechTimestamps(probabilities, audioLength, options);
        const detector = new SpeechDetector(options);
        const actual = runIncrementally(detector, probabilities, audioLength, seededRandom(seed + 1000));
        expect(actual.map(({ startSample, endSample }) => ({ start: startSample, end: endSample }))).toEqual(
          expected,
        );
        compared += expected.length;
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });

  it('keeps the voice inside the padding and never overlaps neighbours', () => {
    const probabilities = syntheticProbabilities(5000, 7);
    const detector = new SpeechDetector();
    const regions = [...detector.push(probabilities), ...detector.flush(5000 * FRAME)];
    expect(regions.length).toBeGreaterThan(20);
    regions.forEach((region, i) => {
      expect(region.startSample).toBeLessThanOrEqual(region.speechStartSample);
      expect(region.speechStartSample).toBeLessThan(region.speechEndSample);
      expect(region.speechEndSample).toBeLessThanOrEqual(region.endSample);
      expect(region.speechEndSample - region.speechStartSample).toBeGreaterThan(4000);
      const previous = regions[i - 1];
      if (previous) expect(region.startSample).toBeGreaterThanOrEqual(previous.endSample);
    });
  });

  it('opens a region once the voice lasts 250 ms and emits it at the endpoint with live settings', () => {
    const detector = new SpeechDetector({ minSilenceMs: ENDPOINT_SILENCE_MS });
    expect(detector.push(new Array<number>(20).fill(0.01))).toEqual([]);
    // 7 frames = 224 ms of speech: not yet a region.
    expect(detector.push(new Array<number>(7).fill(0.9))).toEqual([]);
    expect(detector.openRegion).toBeUndefined();
    expect(detector.push([0.9])).toEqual([]);
    // 8 frames = 256 ms > 250 ms: the region is open, padded 200 ms (3200 samples) before.
    expect(detector.openRegionStart).toBe(20 * FRAME - 3200);
    expect(detector.push(new Array<number>(40).fill(0.95))).toEqual([]);
    // Silence from frame 68 (sample 34816); the first frame starting 500 ms = 8000 samples later
    // is frame 84: it ends the utterance.
    expect(detector.push(new Array<number>(16).fill(0.05))).toEqual([]);
    expect(detector.openRegion).toEqual({
      startSample: 20 * FRAME - 3200,
      speechStartSample: 20 * FRAME,
      speechEndSample: 68 * FRAME,
    });
    const [region, ...rest] = detector.push([0.05]);
    expect(rest).toEqual([]);
    expect(region).toEqual({
      startSample: 20 * FRAME - 3200,
      speechStartSample: 20 * FRAME,
      speechEndSample: 68 * FRAME,
      endSample: 68 * FRAME + 3200,
    });
    expect(detector.openRegion).toBeUndefined();
    expect(detector.flush()).toEqual([]);
  });

  it('drops a blip shorter than the minimum speech', () => {
    const detector = new SpeechDetector();
    const probabilities = [
      ...new Array<number>(30).fill(0),
      ...new Array<number>(5).fill(0.99),
      ...new Array<number>(60).fill(0),
    ];
    expect([...detector.push(probabilities), ...detector.flush()]).toEqual([]);
  });

  it('rejects impossible settings', () => {
    expect(() => new SpeechDetector({ threshold: 0.3, negativeThreshold: 0.4 })).toThrow(RangeError);
    expect(() => new SpeechDetector({ minSilenceMs: -1 })).toThrow(RangeError);
    expect(() => new SpeechDetector({ threshold: 1.5 })).toThrow(RangeError);
  });
});
