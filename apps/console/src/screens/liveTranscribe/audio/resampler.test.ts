import { describe, expect, it } from 'vitest';
import { StreamingResampler } from './resampler';

function tone(frequency: number, rate: number, seconds: number): Float32Array {
  const samples = new Float32Array(Math.round(rate * seconds));
  for (let i = 0; i < samples.length; i += 1)
    samples[i] = 0.5 * Math.sin((2 * Math.PI * frequency * i) / rate);
  return samples;
}

/** Root mean square of the middle of a signal (away from the filter's start and end). */
function rmsOfMiddle(samples: Float32Array): number {
  const middle = samples.subarray(Math.floor(samples.length * 0.25), Math.floor(samples.length * 0.75));
  let sum = 0;
  for (const sample of middle) sum += sample * sample;
  return Math.sqrt(sum / middle.length);
}

/** Resamples in the uneven blocks an AudioWorklet or a socket would deliver. */
function resampleInBlocks(input: Float32Array, inRate: number, outRate: number, block = 128): Float32Array {
  const resampler = new StreamingResampler(inRate, outRate);
  const parts: Float32Array[] = [];
  for (let start = 0; start < input.length; start += block) {
    parts.push(resampler.process(input.subarray(start, start + block)));
  }
  parts.push(resampler.flush());
  const output = new Float32Array(parts.reduce((total, part) => total + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    output.set(part, offset);
    offset += part.length;
  }
  return output;
}

const decibels = (ratio: number) => 20 * Math.log10(ratio);
const toneRms = 0.5 / Math.SQRT2;

describe('StreamingResampler 48 kHz → 16 kHz', () => {
  it('gives one output sample per three input samples, whatever the block sizes', () => {
    const input = tone(440, 48_000, 1);
    expect(resampleInBlocks(input, 48_000, 16_000, 128)).toHaveLength(16_000);
    expect(resampleInBlocks(input, 48_000, 16_000, 1000)).toHaveLength(16_000);
    // Same samples, in whatever blocks they came.
    const even = resampleInBlocks(input, 48_000, 16_000, 128);
    const uneven = resampleInBlocks(input, 48_000, 16_000, 997);
    expect(Math.max(...even.map((value, i) => Math.abs(value - (uneven[i] ?? 0))))).toBeLessThan(1e-6);
  });

  it('passes a 1 kHz tone unchanged in level and keeps it a 1 kHz tone', () => {
    const output = resampleInBlocks(tone(1_000, 48_000, 1), 48_000, 16_000);
    expect(Math.abs(decibels(rmsOfMiddle(output) / toneRms))).toBeLessThan(0.1);
    // Compared with a 1 kHz tone generated at 16 kHz, delayed by the filter's half-width.
    const reference = tone(1_000, 16_000, 1);
    let best = Infinity;
    for (let delay = 0; delay < 64; delay += 1) {
      let error = 0;
      for (let i = 4_000; i < 12_000; i += 1) error += ((output[i + delay] ?? 0) - (reference[i] ?? 0)) ** 2;
      best = Math.min(best, Math.sqrt(error / 8_000));
    }
    expect(best).toBeLessThan(0.01);
  });

  it('keeps the speech band (4 kHz within 0.5 dB)', () => {
    const output = resampleInBlocks(tone(4_000, 48_000, 1), 48_000, 16_000);
    expect(Math.abs(decibels(rmsOfMiddle(output) / toneRms))).toBeLessThan(0.5);
  });

  it.each([9_000, 10_000, 12_000, 15_000, 20_000])(
    'attenuates a %i Hz tone (above the 8 kHz Nyquist frequency) by more than 50 dB instead of folding it into the speech band',
    (frequency) => {
      const output = resampleInBlocks(tone(frequency, 48_000, 1), 48_000, 16_000);
      expect(decibels(rmsOfMiddle(output) / toneRms)).toBeLessThan(-50);
    },
  );

  it('where dropping samples would fold a 10 kHz tone to 6 kHz at full level', () => {
    const input = tone(10_000, 48_000, 1);
    const dropped = input.filter((_, i) => i % 3 === 0);
    expect(Math.abs(decibels(rmsOfMiddle(dropped) / toneRms))).toBeLessThan(0.5);
  });
});

describe('StreamingResampler at other rates', () => {
  it('converts 44.1 kHz to 16 kHz with the same pass and stop bands', () => {
    const passed = resampleInBlocks(tone(1_000, 44_100, 1), 44_100, 16_000);
    expect(passed.length).toBeGreaterThanOrEqual(15_999);
    expect(passed.length).toBeLessThanOrEqual(16_001);
    expect(Math.abs(decibels(rmsOfMiddle(passed) / toneRms))).toBeLessThan(0.1);
    const stopped = resampleInBlocks(tone(11_000, 44_100, 1), 44_100, 16_000);
    expect(decibels(rmsOfMiddle(stopped) / toneRms)).toBeLessThan(-50);
  });

  it('leaves 16 kHz audio as it is', () => {
    const input = tone(1_000, 16_000, 0.5);
    const output = resampleInBlocks(input, 16_000, 16_000);
    expect(output).toHaveLength(input.length);
    expect(Math.abs(decibels(rmsOfMiddle(output) / toneRms))).toBeLessThan(0.1);
  });

  it('refuses rates that are not positive integers', () => {
    expect(() => new StreamingResampler(0, 16_000)).toThrow(RangeError);
    expect(() => new StreamingResampler(44_100.5, 16_000)).toThrow(RangeError);
  });
});
