import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../../errors/app-error.js';
import { newId } from '../../lib/ids.js';

/** A recording received from a client, kept in a temporary file for as long as it is worked on. */
export interface ReceivedAudio {
  path: string;
  bytes: number;
  /** The client's file name, if it sent one (multipart). */
  fileName?: string;
  remove(): Promise<void>;
}

function tooLarge(maxBytes: number): AppError {
  return new AppError(
    'PAYLOAD_TOO_LARGE',
    `The recording is larger than ${Math.round(maxBytes / 1_048_576)} MB, the most this endpoint accepts.`,
  );
}

/**
 * Streams an upload to a temporary file under `directory`, never holding it in memory, and stops
 * with PAYLOAD_TOO_LARGE as soon as it passes `maxBytes` (or at once when the declared length
 * already does). The file is removed on any failure.
 */
export async function receiveAudio(
  source: Readable,
  options: { directory: string; maxBytes: number; declaredBytes?: number; fileName?: string },
): Promise<ReceivedAudio> {
  if (options.declaredBytes !== undefined && options.declaredBytes > options.maxBytes) {
    source.resume();
    throw tooLarge(options.maxBytes);
  }
  await mkdir(options.directory, { recursive: true });
  const filePath = path.join(options.directory, `${newId('upl')}.audio`);
  const remove = () => rm(filePath, { force: true });
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      if (bytes > options.maxBytes) callback(tooLarge(options.maxBytes));
      else callback(null, chunk);
    },
  });
  try {
    await pipeline(source, counter, createWriteStream(filePath, { mode: 0o600 }));
  } catch (error) {
    await remove();
    if (error instanceof AppError) throw error;
    const truncated = (source as Readable & { truncated?: boolean }).truncated;
    if (truncated) throw tooLarge(options.maxBytes);
    throw new AppError(
      'BAD_REQUEST',
      'The upload was interrupted before the whole recording arrived.',
      undefined,
      {
        cause: error,
      },
    );
  }
  if ((source as Readable & { truncated?: boolean }).truncated) {
    await remove();
    throw tooLarge(options.maxBytes);
  }
  if (bytes === 0) {
    await remove();
    throw new AppError(
      'INVALID_FILE',
      'The recording is empty: send the audio as the body or as the multipart field "file".',
    );
  }
  return { path: filePath, bytes, ...(options.fileName ? { fileName: options.fileName } : {}), remove };
}
