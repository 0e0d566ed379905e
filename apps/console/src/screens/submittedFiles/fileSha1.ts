import { sha1 } from '@noble/hashes/legacy.js';
import { bytesToHex } from '@noble/hashes/utils.js';

/** Bytes read from the file per step: large enough to be fast, small enough to keep memory flat. */
const readBytes = 4 * 1024 * 1024;

/**
 * The hex SHA-1 of a file (the server checks it once the last byte arrives), computed slice by
 * slice so that a 500 MB recording is never held in memory whole. WebCrypto only digests a whole
 * buffer, hence the incremental implementation.
 */
export async function fileSha1(
  file: Blob,
  { signal, onProgress }: { signal?: AbortSignal; onProgress?: (hashedBytes: number) => void } = {},
): Promise<string> {
  const hash = sha1.create();
  for (let offset = 0; offset < file.size; offset += readBytes) {
    signal?.throwIfAborted();
    const slice = new Uint8Array(await file.slice(offset, offset + readBytes).arrayBuffer());
    hash.update(slice);
    onProgress?.(Math.min(file.size, offset + readBytes));
  }
  signal?.throwIfAborted();
  return bytesToHex(hash.digest());
}
