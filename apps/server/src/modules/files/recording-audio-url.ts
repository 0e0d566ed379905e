import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SecretStore } from '../../platform/crypto/secret-store.js';

/** How long an audio address stays valid: long enough to listen to a long meeting with pauses. */
export const audioUrlSeconds = 6 * 60 * 60;

/**
 * Short-lived addresses of a file's recording for an `<audio>` element, which cannot send an
 * Authorization header: the address carries its expiry and an HMAC of (file, account, expiry)
 * under a server secret generated once and kept with the other server secrets. Nothing is stored
 * per address; it is good for that file only, until it expires or the file is deleted.
 */
export class RecordingAudioUrls {
  #key: Promise<Buffer> | undefined;

  constructor(private readonly secrets: SecretStore) {}

  async sign(
    accountId: string,
    fileId: string,
    now = Date.now(),
  ): Promise<{ expires: number; signature: string }> {
    const expires = Math.floor(now / 1000) + audioUrlSeconds;
    return { expires, signature: await this.#signature(accountId, fileId, expires) };
  }

  /** Whether the signature is this file's and account's, and whether its time is over. */
  async check(
    accountId: string,
    fileId: string,
    expires: number,
    signature: string,
    now = Date.now(),
  ): Promise<'valid' | 'expired' | 'invalid'> {
    const expected = Buffer.from(await this.#signature(accountId, fileId, expires));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
    return expires < Math.floor(now / 1000) ? 'expired' : 'valid';
  }

  async #signature(accountId: string, fileId: string, expires: number): Promise<string> {
    this.#key ??= this.secrets
      .getOrCreate('recording-audio-url-key', () => randomBytes(32).toString('base64url'))
      .then((key) => Buffer.from(key, 'base64url'));
    return createHmac('sha256', await this.#key)
      .update(`${fileId}.${accountId}.${expires}`)
      .digest('base64url');
  }
}
