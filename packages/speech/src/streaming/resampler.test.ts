import { describe, expect, it } from 'vitest';
import { StreamResampler } from './resampler.js';

function tone(frequency: number, rate: number, seconds: number): Float32Array {
  return Float32Array.from({ length: Math.round(rate * seconds) }, (_, n) =>
    Math.sin((2 * Math.PI * frequency * n) / rate),
  );
}

function rms(samples: Float32Array): number {
  return Math.sqrt(samples.reduce((sum, sample) => sum + sample * sample, 0) / Math.max(1, samples.length));
}

/** Resamples in uneven chunks, as frames arrive from a socket. */
function resampleInChunks(input: Float32Array, from: number, to: number): Float32Array {
  const resampler = new StreamResampler(from, to);
  const parts: Float32Array[] = [];
  for (let at = 0, size = 1000; at < input.length; at += size, size = size === 1000 ? 2731 : 1000)
    parts.push(resampler.push(input.subarray(at, at + size)));
  parts.push(resampler.flush());
  const out = new Float32Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

describe('StreamResampler', () => {
  it('keeps speech frequencies and the duration: 48 kHz → 16 kHz, 1 kHz tone', () => {
    const out = resampleInChunks(tone(1000, 48_000, 1), 48_000, 16_000);
    expect(Math.abs(out.length - 16_000)).toBeLessThanOrEqual(1);
    // A sine's RMS is 1/√2; the filter's ends are excluded.
    expect(rms(out.subarray(200, 15_800))).toBeCloseTo(Math.SQRT1_2, 2);
    // Sample by sample the same tone at 16 kHz (the filter is symmetric: no delay).
    const expected = tone(1000, 16_000, 1);
    for (let n = 1000; n < 1010; n += 1) expect(out[n]).toBeCloseTo(expected[n] ?? 0, 2);
  });

  it('filters out what 16 kHz cannot carry instead of folding it back (no aliasing)', () => {
    // 11 kHz at 48 kHz would alias to 5 kHz if samples were only dropped.
    const out = resampleInChunks(tone(11_000, 48_000, 1), 48_000, 16_000);
    expect(rms(out.subarray(200, 15_800))).toBeLessThan(0.01);
  });

  it('upsamples 8 kHz telephone audio to 16 kHz', () => {
    const out = resampleInChunks(tone(440, 8000, 1), 8000, 16_000);
    expect(Math.abs(out.length - 16_000)).toBeLessThanOrEqual(1);
    expect(rms(out.subarray(200, 15_800))).toBeCloseTo(Math.SQRT1_2, 2);
  });
});
