import { randomBytes } from 'node:crypto';

const alphabet = '0123456789abcdefghjkmnpqrstvwxyz'; // Crockford base32, lower case

function base32(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}

/**
 * An opaque identifier like `msg_01j9z…`: a prefix naming the kind of thing, then 48 bits of
 * milliseconds (so ids sort by creation) and 80 random bits.
 */
export function newId(prefix: string): string {
  const bytes = new Uint8Array(16);
  const now = Date.now();
  for (let i = 5; i >= 0; i--) bytes[5 - i] = Math.floor(now / 2 ** (8 * i)) & 0xff;
  bytes.set(randomBytes(10), 6);
  return `${prefix}_${base32(bytes)}`;
}
