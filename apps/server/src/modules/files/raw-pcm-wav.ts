import { Readable } from 'node:stream';
import type { RawPcmFormat } from '@verbatim/contracts';

/** Bytes of the canonical WAV header put before headerless samples. */
export const wavHeaderBytes = 44;

/**
 * The RIFF/WAVE header of `dataBytes` of headerless PCM in `format`: a browser's audio player
 * cannot play raw samples, but plays them as a WAV file (16-bit integer or 32-bit float PCM).
 */
export function wavHeader(format: RawPcmFormat, dataBytes: number): Buffer {
  const bytesPerSample = format.encoding === 's16le' ? 2 : 4;
  const blockAlign = bytesPerSample * format.channels;
  const header = Buffer.alloc(wavHeaderBytes);
  // Sizes above 4 GiB cannot be stated: the largest value, which players read as "to the end".
  const riffSize = Math.min(0xffff_ffff, dataBytes + wavHeaderBytes - 8);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(riffSize, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(format.encoding === 's16le' ? 1 : 3, 20); // 1: integer PCM, 3: IEEE float
  header.writeUInt16LE(format.channels, 22);
  header.writeUInt32LE(format.sampleRate, 24);
  header.writeUInt32LE(format.sampleRate * blockAlign, 28);
  header.writeUInt16LE(blockAlign, 32);
  header.writeUInt16LE(bytesPerSample * 8, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(Math.min(0xffff_ffff, dataBytes), 40);
  return header;
}

/**
 * Bytes `start` to `end` (both included) of the WAV file made of `header` and the samples, the
 * samples' part read by `openSamples` (its bounds in the samples, both included).
 */
export async function wavRange(
  header: Buffer,
  start: number,
  end: number,
  openSamples: (start: number, end: number) => Promise<Readable>,
): Promise<Readable> {
  const headerPart =
    start < header.length ? header.subarray(start, Math.min(end + 1, header.length)) : undefined;
  const samplesStart = Math.max(0, start - header.length);
  const samplesEnd = end - header.length;
  const samples = samplesEnd >= samplesStart ? await openSamples(samplesStart, samplesEnd) : undefined;
  if (!samples) return Readable.from(headerPart ? [headerPart] : []);
  if (!headerPart) return samples;
  return Readable.from(
    (async function* () {
      yield headerPart;
      yield* samples;
    })(),
  );
}
