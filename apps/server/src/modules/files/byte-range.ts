import type { ByteRange } from '../../platform/storage/file-storage.js';

/**
 * The single range of a `Range: bytes=…` header (RFC 9110 §14.1.2) in an object of `size` bytes:
 * `a-b`, `a-` or the suffix `-n`, an end past the object cut to its last byte. Undefined: no
 * header, another unit or several ranges (answered whole, which the RFC allows); 'unsatisfiable':
 * a range that starts past the end (416).
 */
export function parseByteRange(
  header: string | undefined,
  size: number,
): ByteRange | 'unsatisfiable' | undefined {
  const match = header?.trim().match(/^bytes=(\d*)-(\d*)$/i);
  if (!match) return undefined;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return undefined;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}
