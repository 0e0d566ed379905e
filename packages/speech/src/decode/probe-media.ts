import path from 'node:path';

import { z } from 'zod';

import { SpeechError } from '../speech-error.js';
import { ffmpegBinariesFromEnv, type FfmpegBinaries } from './ffmpeg-binaries.js';
import { sanitiseFfmpegReason, saysIndexMissing } from './ffmpeg-reason.js';
import { assertReadableNonEmptyFile } from './input-file.js';
import { describeFromHeader } from './recording-header.js';
import { cancelledError, runProcess } from './run-process.js';

export interface MediaProbe {
  /** Seconds of audio. Taken from the container header, so a file cut short after its header may decode to less. */
  durationSeconds: number;
  /**
   * Where the duration comes from: the container, the audio stream, or `measured` by reading every
   * packet (raw AAC/MP3 streams whose header only gives a bitrate estimate, files with no duration).
   */
  durationSource: 'container' | 'stream' | 'measured';
  /** ffprobe's format name, e.g. `mp3`, `ogg`, `mov,mp4,m4a,3gp,3g2,mj2`. */
  container: string;
  /** ffprobe's codec name of the first audio stream (the one decodeAudio decodes), e.g. `aac`, `opus`. */
  audioCodec: string;
  sampleRate: number;
  channels: number;
}

export interface ProbeMediaOptions {
  /** Per ffprobe/ffmpeg run. Default 60 s. */
  timeoutMs?: number;
  signal?: AbortSignal;
  binaries?: FfmpegBinaries;
}

const defaultProbeTimeoutMs = 60_000;

/**
 * The error message for bytes that are no recording ffmpeg recognises. Headerless PCM is such
 * bytes too, so the message says how to send it.
 */
export const notAudioMessage =
  'Not an audio or video file. Headerless PCM is read when its encoding (s16le or f32le), sampleRate and channels are given.';

/**
 * Formats that ffmpeg "recognises" in plain text or arbitrary bytes (ANSI art, binary text): a file
 * detected as one of these is no recording at all, not a video without sound.
 */
const textArtFormats = new Set(['tty', 'bin', 'adf', 'idf', 'xbin']);

/**
 * Demuxers of audio and video recordings. Uploads are untrusted: playlists (HLS, concat), images
 * and text formats would let a crafted file make ffmpeg read other files of the server.
 */
const recordingDemuxers = [
  'mp3',
  'mov',
  'ogg',
  'wav',
  'w64',
  'flac',
  'matroska',
  'aiff',
  'aac',
  'caf',
  'amr',
  'au',
  'avi',
  'asf',
  'mpegts',
  'mpeg',
  'flv',
  'wv',
  'ape',
  'tta',
  'mpc',
  'mpc8',
  'ac3',
  'eac3',
  'dts',
  'truehd',
  'gsm',
  'voc',
  'rm',
  'nut',
  'ircam',
  'sox',
  'loas',
  'mlp',
  'dsf',
].join(',');

/** Only the file protocol (and pipes), and only recording demuxers: see above. */
export const ffmpegProtocolArgs = [
  '-protocol_whitelist',
  'file,pipe',
  '-format_whitelist',
  recordingDemuxers,
];

/** How every ffmpeg run of the engine opens a recording: quiet, restricted, first audio track only. */
export function ffmpegAudioInputArgs(inputUrl: string): string[] {
  return [
    '-nostdin',
    '-hide_banner',
    '-loglevel',
    'error',
    ...ffmpegProtocolArgs,
    '-i',
    inputUrl,
    '-map',
    '0:a:0',
  ];
}

const probeOutputSchema = z.object({
  streams: z
    .array(
      z.object({
        codec_type: z.string().optional(),
        codec_name: z.string().optional(),
        sample_rate: z.string().optional(),
        channels: z.number().optional(),
        duration: z.string().optional(),
      }),
    )
    .default([]),
  format: z.object({ format_name: z.string().optional(), duration: z.string().optional() }).optional(),
});

/**
 * What a file is: container, first audio stream and duration, from its headers for the common
 * formats (recording-header.ts), else through `ffprobe`. Errors are SpeechErrors.
 */
export async function probeMedia(filePath: string, options: ProbeMediaOptions = {}): Promise<MediaProbe> {
  const binaries = options.binaries ?? ffmpegBinariesFromEnv();
  const timeoutMs = options.timeoutMs ?? defaultProbeTimeoutMs;
  const absolutePath = path.resolve(filePath);
  const size = await assertReadableNonEmptyFile(absolutePath);
  if (options.signal?.aborted) throw cancelledError();
  const fromHeader = await describeFromHeader(absolutePath, size);
  if (fromHeader) return fromHeader;

  const result = await runProcess(
    binaries.ffprobePath,
    [
      '-v',
      // Warnings too: "Estimating duration from bitrate" tells that the header's duration is a guess.
      'warning',
      ...ffmpegProtocolArgs,
      '-show_entries',
      'format=format_name,duration:stream=codec_type,codec_name,sample_rate,channels,duration',
      '-of',
      'json',
      `file:${absolutePath}`,
    ],
    { timeoutMs, ...(options.signal ? { signal: options.signal } : {}) },
  );
  const reason = sanitiseFfmpegReason(result.stderr, absolutePath);
  if (result.exitCode !== 0) throw unreadableMediaError(result.stderr, reason);

  const parsed = probeOutputSchema.safeParse(safeJson(result.stdout));
  if (!parsed.success) {
    throw new SpeechError('INVALID_FILE', notAudioMessage, {
      reason: 'unreadable ffprobe output',
    });
  }
  const { streams, format } = parsed.data;
  const container = format?.format_name ?? 'unknown';
  const audio = streams.find((stream) => stream.codec_type === 'audio');
  if (!audio) {
    const textArt =
      textArtFormats.has(container) ||
      streams.every((s) => s.codec_name === 'ansi' || s.codec_name === 'bintext');
    if (textArt || streams.length === 0) {
      throw new SpeechError('INVALID_FILE', notAudioMessage, { container, reason });
    }
    throw new SpeechError('UNSUPPORTED_MEDIA', 'The file has no audio track.', { container });
  }
  const sampleRate = Number(audio.sample_rate ?? 0);
  const channels = audio.channels ?? 0;
  if (!(sampleRate > 0) || !(channels > 0)) {
    // ffmpeg guessed a format from a few bytes ("detected only with low score") but found no frame in it.
    throw new SpeechError('INVALID_FILE', notAudioMessage, { container, reason });
  }

  const headerDuration = positiveNumber(format?.duration);
  const streamDuration = positiveNumber(audio.duration);
  const estimated = /Estimating duration from bitrate|file ?size and duration do not match/i.test(
    result.stderr,
  );
  let durationSeconds: number | undefined;
  let durationSource: MediaProbe['durationSource'] = 'container';
  if (!estimated && headerDuration !== undefined) {
    durationSeconds = headerDuration;
  } else if (!estimated && streamDuration !== undefined) {
    durationSeconds = streamDuration;
    durationSource = 'stream';
  } else {
    durationSeconds = await measureAudioDuration(absolutePath, binaries, timeoutMs, options.signal);
    durationSource = 'measured';
    if (durationSeconds === undefined && (headerDuration ?? streamDuration) !== undefined) {
      durationSeconds = headerDuration ?? streamDuration;
      durationSource = headerDuration !== undefined ? 'container' : 'stream';
    }
  }
  if (durationSeconds === undefined) {
    throw new SpeechError('INVALID_FILE', 'No audio could be read from the file.', { container, reason });
  }
  return {
    durationSeconds,
    durationSource,
    container,
    audioCodec: audio.codec_name ?? 'unknown',
    sampleRate,
    channels,
  };
}

/** The error for a file that ffprobe or ffmpeg could not open at all. */
export function unreadableMediaError(stderr: string, reason: string): SpeechError {
  if (saysIndexMissing(stderr)) {
    return new SpeechError(
      'INVALID_FILE',
      'The file is incomplete or damaged: its index is missing (was it cut short?).',
      {
        reason,
      },
    );
  }
  return new SpeechError('INVALID_FILE', notAudioMessage, { reason });
}

/**
 * The duration of the first audio stream from its packets' timestamps: a stream copy into the null
 * muxer reads the file once without decoding it (about a second for an hour of MP3).
 */
async function measureAudioDuration(
  absolutePath: string,
  binaries: FfmpegBinaries,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<number | undefined> {
  const result = await runProcess(
    binaries.ffmpegPath,
    [
      ...ffmpegAudioInputArgs(`file:${absolutePath}`),
      '-c',
      'copy',
      '-f',
      'null',
      '-progress',
      'pipe:1',
      '-nostats',
      '-',
    ],
    { timeoutMs, ...(signal ? { signal } : {}) },
  );
  const times = [...result.stdout.matchAll(/^out_time_us=(\d+)$/gm)];
  const lastMicroseconds = Number(times.at(-1)?.[1] ?? NaN);
  return lastMicroseconds > 0 ? lastMicroseconds / 1_000_000 : undefined;
}

function positiveNumber(text: string | undefined): number | undefined {
  const value = Number(text);
  return text !== undefined && Number.isFinite(value) && value > 0 ? value : undefined;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
