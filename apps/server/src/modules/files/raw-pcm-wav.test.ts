import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { wavHeader, wavHeaderBytes, wavRange } from './raw-pcm-wav.js';

/** What ffprobe reads in a file: the way a player would see it. */
function probe(bytes: Buffer): Record<string, string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'verbatim-wav-'));
  try {
    const file = path.join(dir, 'x.wav');
    writeFileSync(file, bytes);
    const out = execFileSync('ffprobe', [
      '-v',
      'error',
      '-show_entries',
      'stream=codec_name,sample_rate,channels:format=format_name,duration',
      '-of',
      'default=noprint_wrappers=1',
      file,
    ]).toString();
    return Object.fromEntries(
      out
        .trim()
        .split('\n')
        .map((line) => line.split('=') as [string, string]),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('headerless PCM played as WAV', () => {
  it('gives 16-bit and float samples a header players read with the stated rate, channels and length', () => {
    const s16 = Buffer.alloc(8000 * 2 * 3); // 3 s of 8 kHz mono
    expect(
      probe(
        Buffer.concat([wavHeader({ encoding: 's16le', sampleRate: 8000, channels: 1 }, s16.length), s16]),
      ),
    ).toMatchObject({
      codec_name: 'pcm_s16le',
      sample_rate: '8000',
      channels: '1',
      format_name: 'wav',
      duration: '3.000000',
    });
    const f32 = Buffer.alloc(16_000 * 4 * 2); // 1 s of 16 kHz stereo float
    expect(
      probe(
        Buffer.concat([wavHeader({ encoding: 'f32le', sampleRate: 16_000, channels: 2 }, f32.length), f32]),
      ),
    ).toMatchObject({
      codec_name: 'pcm_f32le',
      sample_rate: '16000',
      channels: '2',
      duration: '1.000000',
    });
  });

  it('answers any byte range of header and samples together, as Range requests ask', async () => {
    const header = Buffer.from('H'.repeat(wavHeaderBytes));
    const samples = 'abcdefghij';
    const openSamples = (start: number, end: number) =>
      Promise.resolve(Readable.from([Buffer.from(samples.slice(start, end + 1))]));
    const whole = 'H'.repeat(wavHeaderBytes) + samples;
    for (const [start, end] of [
      [0, whole.length - 1],
      [0, 10],
      [40, 47],
      [wavHeaderBytes, wavHeaderBytes + 3],
      [wavHeaderBytes + 5, whole.length - 1],
      [wavHeaderBytes - 1, wavHeaderBytes - 1],
    ] as const) {
      expect(await text(await wavRange(header, start, end, openSamples)), `${start}-${end}`).toBe(
        whole.slice(start, end + 1),
      );
    }
  });
});
