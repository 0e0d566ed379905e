import { stat } from 'node:fs/promises';

import { SpeechError } from '../speech-error.js';

/**
 * Fails early, with a message a user understands, for the two cases ffmpeg words badly: a path
 * that is no readable file and a file of zero bytes. The error names no path. Returns the size.
 */
export async function assertReadableNonEmptyFile(absolutePath: string): Promise<number> {
  let size: number;
  try {
    const stats = await stat(absolutePath);
    if (!stats.isFile()) throw Object.assign(new Error('not a regular file'), { code: 'EISDIR' });
    size = stats.size;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown';
    throw new SpeechError('INVALID_FILE', 'The file could not be read.', { reason: code });
  }
  if (size === 0) throw new SpeechError('INVALID_FILE', 'The file is empty.');
  return size;
}
