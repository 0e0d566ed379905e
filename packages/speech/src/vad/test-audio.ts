// Test helper of the VAD tests (not product code): real audio decoded by ffmpeg, and generated
// silence and noise. Kept here so that the VAD tests do not depend on the decoder module.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { seededRandom } from '../test-support/seeded-random.js';

export const repoRoot = path.resolve(import.meta.dirname, '../../../..');
export const testdata = (relative: string): string => path.resolve(repoRoot, '../shared/testdata', relative);

const SAMPLE_RATE = 16_000;
const DECODE_TIME_LIMIT_MS = 60_000;

/** The whole file as 16 kHz mono float PCM (`ffmpeg … -f f32le -`). */
export function decodeFile(file: string): Promise<Float32Array> {
  return new Promise((resolve, reject) => {
    const ffmpeg = spawn(
      'ffmpeg',
      [
        '-nostdin',
        '-loglevel',
        'error',
        '-i',
        file,
        '-ac',
        '1',
        '-ar',
        String(SAMPLE_RATE),
        '-f',
        'f32le',
        '-',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const timer = setTimeout(() => ffmpeg.kill('SIGKILL'), DECODE_TIME_LIMIT_MS);
    const chunks: Buffer[] = [];
    let stderr = '';
    ffmpeg.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    ffmpeg.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    ffmpeg.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    ffmpeg.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code !== 0) {
        reject(new Error(`ffmpeg failed on ${file} (${signal ?? code}): ${stderr.trim()}`));
        return;
      }
      const bytes = Buffer.concat(chunks);
      const samples = new Float32Array(bytes.length / 4);
      for (let i = 0; i < samples.length; i++) samples[i] = bytes.readFloatLE(i * 4);
      resolve(samples);
    });
  });
}

export function seconds(count: number): number {
  return Math.round(count * SAMPLE_RATE);
}

export function silence(durationSeconds: number): Float32Array {
  return new Float32Array(seconds(durationSeconds));
}

export function concat(...parts: Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

function gaussian(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

export type NoiseColour = 'white' | 'pink' | 'brown';

/** Noise scaled to the RMS level `dbfs` (0 dBFS = RMS of 1). */
export function noise(colour: NoiseColour, durationSeconds: number, dbfs: number, seed = 1): Float32Array {
  const random = seededRandom(seed);
  const out = new Float32Array(seconds(durationSeconds));
  // Pink: Paul Kellet's economy filter; brown: leaky integration of white noise.
  let b0 = 0;
  let b1 = 0;
  let b2 = 0;
  let brown = 0;
  for (let i = 0; i < out.length; i++) {
    const white = gaussian(random);
    switch (colour) {
      case 'white':
        out[i] = white;
        break;
      case 'pink':
        b0 = 0.99765 * b0 + white * 0.099046;
        b1 = 0.963 * b1 + white * 0.2965164;
        b2 = 0.57 * b2 + white * 1.0526913;
        out[i] = b0 + b1 + b2 + white * 0.1848;
        break;
      case 'brown':
        brown = 0.998 * brown + white * 0.05;
        out[i] = brown;
        break;
    }
  }
  const rms = Math.sqrt(out.reduce((sum, sample) => sum + sample * sample, 0) / out.length);
  const gain = 10 ** (dbfs / 20) / rms;
  for (let i = 0; i < out.length; i++) out[i] = (out[i] ?? 0) * gain;
  return out;
}

/** The audio in consecutive chunks of `size` samples (the last one shorter). */
export function* chunksOf(samples: Float32Array, size: number): Generator<Float32Array> {
  for (let offset = 0; offset < samples.length; offset += size) {
    yield samples.subarray(offset, Math.min(offset + size, samples.length));
  }
}
