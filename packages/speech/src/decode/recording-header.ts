import { parseFile, type IFormat } from 'music-metadata';

import type { MediaProbe } from './probe-media.js';

/**
 * The common recording formats, described from their headers in this process (music-metadata),
 * named as ffprobe names them. ffprobe is a process start of its own: Debian's ffmpeg links 215
 * shared libraries, and resolving their symbols costs 0.15-0.2 s of CPU per run (perf: 76 % in
 * ld.so), plus a second ffmpeg run to measure an MP3 without a frame count (a constant bitrate
 * and the file's size tell it here). On the dev set's 103 files: 23.8 s of ffprobe against 0.5 s
 * here, the same durations within 0.05 s.
 *
 * Only what the headers tell for certain is taken; anything else (a video, a QuickTime file, an
 * extensible WAV, a codec not listed here, a header that disagrees with the file's size, any parse
 * error) is left to ffprobe, which also words the errors. Decoding stays with ffmpeg either way.
 */
export async function describeFromHeader(
  absolutePath: string,
  size: number,
): Promise<MediaProbe | undefined> {
  let format: IFormat;
  try {
    // Headers only: asked for an exact duration, music-metadata reads an MP3 without a frame count
    // frame by frame, at about a second per megabyte (ffprobe measures one in 0.3 s).
    format = (await parseFile(absolutePath, { duration: false, skipCovers: true })).format;
    if (format.container === 'Ogg' && format.duration === undefined && size <= maxOggReadBytes) {
      format = (await parseFile(absolutePath, { duration: true, skipCovers: true })).format;
    }
  } catch {
    return undefined;
  }
  const known = ffprobeNames(format);
  const { duration, sampleRate, numberOfChannels } = format;
  if (!known || format.hasVideo || format.hasAudio === false) return undefined;
  if (!isPositive(duration) || !isPositive(sampleRate) || !isPositive(numberOfChannels)) return undefined;
  if (known.container === 'mp3' && !sizeAgreesWithDuration(size, format.bitrate, duration)) return undefined;
  return {
    durationSeconds: duration,
    durationSource: 'container',
    container: known.container,
    audioCodec: known.codec,
    // ffmpeg decodes Opus at 48 kHz whatever rate the encoder was given (the header's "input rate").
    sampleRate: known.codec === 'opus' ? 48_000 : sampleRate,
    channels: numberOfChannels,
  };
}

/**
 * An Ogg file's duration is in its last page, which music-metadata reaches by reading the whole
 * file (0.56 s for an hour of Opus, 16 MB); ffprobe seeks to it (0.24 s), so larger files go there.
 */
const maxOggReadBytes = 16 * 1024 * 1024;

/** ffprobe's format and codec names for music-metadata's, for the formats taken from headers. */
function ffprobeNames(format: IFormat): { container: string; codec: string } | undefined {
  const container = format.container ?? '';
  const codec = format.codec ?? '';
  if (container === 'WAVE') {
    const pcm = wavCodec(codec, format.bitsPerSample);
    return pcm ? { container: 'wav', codec: pcm } : undefined;
  }
  if (container === 'AIFF' && codec === 'PCM' && format.bitsPerSample === 16) {
    return { container: 'aiff', codec: 'pcm_s16be' };
  }
  if (container === 'FLAC' && codec === 'FLAC') return { container: 'flac', codec: 'flac' };
  if (container === 'MPEG' && /^MPEG (1|2|2\.5) Layer 3$/.test(codec))
    return { container: 'mp3', codec: 'mp3' };
  if (container === 'Ogg') {
    const oggCodec = ({ Opus: 'opus', 'Vorbis I': 'vorbis', FLAC: 'flac' } as Record<string, string>)[codec];
    return oggCodec ? { container: 'ogg', codec: oggCodec } : undefined;
  }
  // "M4A/isom/iso2", "mp42/isom": ISO MP4 brands; QuickTime ("qt") is left to ffprobe.
  if (/^(M4A|mp4[12]|isom)\b/.test(container) && codec === 'MPEG-4/AAC') {
    return { container: 'mov,mp4,m4a,3gp,3g2,mj2', codec: 'aac' };
  }
  return undefined;
}

function wavCodec(codec: string, bitsPerSample: number | undefined): string | undefined {
  if (codec === 'PCM') {
    return ({ 8: 'pcm_u8', 16: 'pcm_s16le', 24: 'pcm_s24le', 32: 'pcm_s32le' } as Record<number, string>)[
      bitsPerSample ?? 0
    ];
  }
  if (codec === 'IEEE_FLOAT')
    return bitsPerSample === 64 ? 'pcm_f64le' : bitsPerSample === 32 ? 'pcm_f32le' : undefined;
  if (codec === 'ALAW') return 'pcm_alaw';
  if (codec === 'MULAW') return 'pcm_mulaw';
  return undefined;
}

/**
 * An MP3's frame-count header (Xing, Info, VBRI) describes the file as it was written: cut short
 * during an upload, the file keeps the header of the whole recording. The bytes must then be
 * about what the header's duration and bitrate need (tags and a cover picture make them more,
 * and leave the file to ffprobe, which measures it). Without that header, music-metadata gives a
 * duration only for a constant bitrate, from these same bytes; a variable bitrate gets none.
 */
function sizeAgreesWithDuration(size: number, bitrate: number | undefined, duration: number): boolean {
  if (!isPositive(bitrate)) return false;
  const expectedBytes = (duration * bitrate) / 8;
  return Math.abs(size - expectedBytes) <= expectedBytes * 0.05 + 4096;
}

function isPositive(value: number | undefined): value is number {
  return value !== undefined && Number.isFinite(value) && value > 0;
}
