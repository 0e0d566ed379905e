import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { SecretStore } from './secret-store.js';

const version = 'v1';
const ivBytes = 12;
const tagBytes = 16;

/**
 * Seals third-party tokens before they reach the database: AES-256-GCM with a fresh 96-bit IV per
 * value, bound to what it belongs to (`context`, e.g. the integration id) as additional data, so a
 * sealed token copied onto another row does not open there.
 */
export class TokenSealer {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('the token key must be 32 bytes (AES-256)');
    this.#key = key;
  }

  /** The configured key, or the one generated on first start and kept with the other server secrets. */
  static async open(configuredKey: Buffer | null, secrets: SecretStore): Promise<TokenSealer> {
    if (configuredKey) return new TokenSealer(configuredKey);
    const stored = await secrets.getOrCreate('integrations-token-key', () =>
      randomBytes(32).toString('base64'),
    );
    return new TokenSealer(Buffer.from(stored, 'base64'));
  }

  seal(plaintext: string, context: string): string {
    const iv = randomBytes(ivBytes);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv, { authTagLength: tagBytes });
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [version, iv, sealed, cipher.getAuthTag()]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  /** Throws when the value was not sealed by this key for this context, or was altered. */
  open(sealed: string, context: string): string {
    const [tag, iv, ciphertext, authTag] = sealed.split('.');
    if (tag !== version || !iv || ciphertext === undefined || !authTag) {
      throw new Error('not a sealed token');
    }
    const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64url'), {
      authTagLength: tagBytes,
    });
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(authTag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }
}
