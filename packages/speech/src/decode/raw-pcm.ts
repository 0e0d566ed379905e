import path from 'node:path';

import { SpeechError } from '../speech-error.js';
import { assertReadableNonEmptyFile } from './input-file.js';
import type { MediaProbe } from './probe-media.js';

/** Sample formats of headerless PCM: 16-bit signed integers or 32-bit floats, little-endian. */
export const rawPcmEncodings = ['s16le', 'f32le'] as const;
export type RawPcmEncoding = (typeof rawPcmEncodings)[number];

/**
 * What the caller says a headerless recording is (telephony systems and embedded recorders send
 * raw PCM): it cannot be probed, so nothing of it is guessed. Channels are interleaved and mixed
 * down to mono.
 */
export interface RawPcmFormat {
  encoding: RawPcmEncoding;
  /** Samples per second of each channel. */
  sampleRate: number;
  channels: number;
}

const bytesPerSample: Record<RawPcmEncoding, number> = { s16le: 2, f32le: 4 };

/** Bytes of one sample of every channel. */
export function rawPcmFrameBytes(format: RawPcmFormat): number {
  return bytesPerSample[format.encoding] * format.channels;
}

/**
 * How ffmpeg opens headerless PCM: only the file protocol (and pipes), its raw demuxer forced with
 * the stated rate and channels, no probing of the bytes.
 */
export function ffmpegRawPcmInputArgs(inputUrl: string, format: RawPcmFormat): string[] {
  return [
    '-nostdin',
    '-hide_banner',
    '-loglevel',
    'error',
    '-protocol_whitelist',
    'file,pipe',
    '-format_whitelist',
    format.encoding,
    '-f',
    format.encoding,
    '-ar',
    String(format.sampleRate),
    '-ac',
    String(format.channels),
    '-i',
    inputUrl,
    '-map',
    '0:a:0',
  ];
}

/**
 * The probe of a headerless recording, from its size alone: its duration is exact. A size that is
 * not a whole number of samples × channels is refused (INVALID_FILE): the stated format is not the
 * recording's, or it was cut short.
 */
export async function probeRawPcm(filePath: string, format: RawPcmFormat): Promise<MediaProbe> {
  const absolutePath = path.resolve(filePath);
  const size = await assertReadableNonEmptyFile(absolutePath);
  const frameBytes = rawPcmFrameBytes(format);
  if (size % frameBytes !== 0) {
    const sample = format.encoding === 's16le' ? '16-bit' : '32-bit float';
    throw new SpeechError(
      'INVALID_FILE',
      `The recording (${size} bytes) is not a whole number of ${sample} samples × ${format.channels} channel${format.channels === 1 ? '' : 's'} (${frameBytes} bytes each): check encoding and channels, or the recording was cut short.`,
      { bytes: size, frameBytes },
    );
  }
  return {
    durationSeconds: size / frameBytes / format.sampleRate,
    durationSource: 'measured',
    container: format.encoding,
    audioCodec: `pcm_${format.encoding}`,
    sampleRate: format.sampleRate,
    channels: format.channels,
  };
}
