import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { apiKeySecretPrefix } from '@verbatim/contracts';

/**
 * API key secrets: `vbt_live_` + 43 characters of base64url (32 random bytes, 256 bits) + 6
 * characters of base64url (a CRC-32 of everything before it). The fixed prefix lets secret
 * scanners recognise a leaked key; the checksum lets them (and us, without a database query)
 * tell a real key from a typo or a guess.
 */
const randomBytesCount = 32;
const bodyLength = 43;
const checksumLength = 6;
const shape = new RegExp(`^${apiKeySecretPrefix}[A-Za-z0-9_-]{${bodyLength + checksumLength}}$`);

/** Characters of the secret kept and shown to recognise a key: the prefix and 7 random characters. */
export const displayedPrefixLength = apiKeySecretPrefix.length + 7;

export interface GeneratedSecret {
  secret: string;
  prefix: string;
  hash: string;
}

export function generateApiKeySecret(): GeneratedSecret {
  const unchecked = apiKeySecretPrefix + randomBytes(randomBytesCount).toString('base64url');
  const secret = unchecked + checksumOf(unchecked);
  return { secret, prefix: secret.slice(0, displayedPrefixLength), hash: hashApiKeySecret(secret) };
}

/** Whether a bearer credential is meant as an API key (rather than an access token, a JWT). */
export function looksLikeApiKey(credential: string): boolean {
  return credential.startsWith('vbt_');
}

/** Shape and checksum: false for anything that cannot be a key we issued. */
export function isWellFormedApiKey(secret: string): boolean {
  if (!shape.test(secret)) return false;
  const split = secret.length - checksumLength;
  return checksumOf(secret.slice(0, split)) === secret.slice(split);
}

/**
 * What is stored of a secret. A fast hash is right here, unlike for passwords: the secret has 256
 * random bits, so there is nothing to brute-force that a slow hash would protect, and lookups by
 * hash happen on every API request.
 */
export function hashApiKeySecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

function checksumOf(text: string): string {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(crc32(text));
  return bytes.toString('base64url');
}
