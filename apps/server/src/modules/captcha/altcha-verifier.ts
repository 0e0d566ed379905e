import type { CaptchaChallenge } from '@verbatim/contracts';
import { createChallenge, extractParams, verifySolution } from 'altcha-lib/v1';
import { z } from 'zod';
import type { SecretStore } from '../../platform/crypto/secret-store.js';
import { randomSecret } from '../../platform/crypto/tokens.js';
import type { CaptchaSolutionsRepository } from './captcha-solutions.repository.js';
import type { CaptchaVerifier } from './captcha-verifier.js';

/** What the ALTCHA widget submits, base64-encoded JSON. */
const payloadSchema = z.object({
  algorithm: z.literal('SHA-256'),
  challenge: z.string().min(1).max(256),
  number: z.number().int().nonnegative(),
  salt: z.string().min(1).max(512),
  signature: z.string().min(1).max(256),
});

export interface AltchaOptions {
  maxNumber: number;
  challengeTtlSeconds: number;
}

/**
 * ALTCHA proof of work (the v1 challenge format the widget speaks). Challenges are signed with a
 * key every process shares and expire; altcha-lib only checks signature and expiry, so an
 * accepted solution is recorded to refuse it a second time.
 */
export class AltchaVerifier implements CaptchaVerifier {
  #hmacKey: Promise<string> | undefined;

  constructor(
    private readonly options: AltchaOptions,
    private readonly secrets: SecretStore,
    private readonly solutions: CaptchaSolutionsRepository,
  ) {}

  async createChallenge(): Promise<CaptchaChallenge> {
    return createChallenge({
      algorithm: 'SHA-256',
      hmacKey: await this.#key(),
      maxnumber: this.options.maxNumber,
      expires: new Date(Date.now() + this.options.challengeTtlSeconds * 1000),
    });
  }

  async verify(solution: string): Promise<boolean> {
    const payload = decode(solution);
    if (!payload) return false;
    const expires = Number(extractParams(payload).expires);
    // Our challenges always carry an expiry; without one the replay record could never be purged.
    if (!Number.isSafeInteger(expires)) return false;
    if (!(await verifySolution(payload, await this.#key(), true))) return false;
    const now = new Date();
    await this.solutions.purgeExpired(now);
    return this.solutions.claim(payload.signature, new Date(expires * 1000));
  }

  #key(): Promise<string> {
    this.#hmacKey ??= this.secrets.getOrCreate('altcha-hmac-key', () => randomSecret(32));
    // A failed lookup (database briefly down) is retried on the next call rather than cached.
    this.#hmacKey.catch(() => (this.#hmacKey = undefined));
    return this.#hmacKey;
  }
}

function decode(solution: string): z.infer<typeof payloadSchema> | undefined {
  try {
    const json: unknown = JSON.parse(Buffer.from(solution, 'base64').toString('utf8'));
    return payloadSchema.safeParse(json).data;
  } catch {
    return undefined;
  }
}
