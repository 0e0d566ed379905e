import { createHash, randomBytes } from 'node:crypto';

/** A URL-safe random secret with 256 bits of entropy. */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** What we store of a secret sent to someone: its SHA-256, so a database leak reveals no live link. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
