import {
  createHmac,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  timingSafeEqual,
  verify,
  type KeyObject,
} from 'node:crypto';
import { z } from 'zod';
import { AppError } from '../../errors/app-error.js';
import type { SecretStore } from '../../platform/crypto/secret-store.js';

/** Every key starts with this, then 8 random characters: together, the prefix shown in lists. */
export const keyScheme = 'vbl1_';
const prefixLength = keyScheme.length + 8;

/** What a key says about its licence; signed, so an installation can trust it without calling home. */
export const licencePayloadSchema = z.object({
  /** The random part of the prefix, repeated inside the signed payload. */
  tag: z.string().regex(/^[0-9a-z]{8}$/),
  licenceId: z.string().min(1),
  accountId: z.string().min(1),
  name: z.string(),
  maxUses: z.int().positive(),
  expiresAt: z.iso.datetime({ offset: true }),
  graceDays: z.int().nonnegative(),
  issuedAt: z.iso.datetime({ offset: true }),
});
export type LicencePayload = z.infer<typeof licencePayloadSchema>;

export interface VerifiedKey {
  payload: LicencePayload;
  /** The base64url payload segment, as signed. */
  encodedPayload: string;
  prefix: string;
}

export function encodePayload(payload: LicencePayload): string {
  return Buffer.from(JSON.stringify(payload)).toString('base64url');
}

function signedPart(tag: string, encodedPayload: string): string {
  return `${keyScheme}${tag}.${encodedPayload}`;
}

/** `vbl1_<tag>.<payload>.<signature>`: the payload and its Ed25519 signature, base64url. */
export function signLicenceKey(privateKey: KeyObject, encodedPayload: string): string {
  const payload = decodePayload(encodedPayload);
  if (!payload) throw new Error('not a licence payload');
  const message = signedPart(payload.tag, encodedPayload);
  return `${message}.${sign(null, Buffer.from(message), privateKey).toString('base64url')}`;
}

/** The payload of a key's middle segment; null when it is not one. */
export function decodePayload(encoded: string): LicencePayload | null {
  try {
    const parsed = licencePayloadSchema.safeParse(
      JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')),
    );
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The prefix shown for a key, without checking anything else. */
export function keyPrefixOf(key: string): string {
  return key.slice(0, prefixLength);
}

/**
 * Checks a key offline against the licence server's public key: LICENSE_INVALID for anything that
 * is not exactly a key that server signed (one changed byte, another server's signature), then
 * LICENSE_EXPIRED when its expiry is past (unless `ignoreExpiry`, for reporting usage of an expired
 * licence). Nothing else is consulted.
 */
export function verifyLicenceKey(
  publicKey: KeyObject,
  key: string,
  options: { now?: Date; ignoreExpiry?: boolean } = {},
): VerifiedKey {
  const invalid = () =>
    new AppError(
      'LICENSE_INVALID',
      'The licence key is not valid: check that LICENSE_KEY is copied whole and that LICENSE_PUBLIC_KEY is the licence server’s public key.',
    );
  const match = /^vbl1_([0-9a-z]{8})\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(key.trim());
  if (!match?.[1] || !match[2] || !match[3]) throw invalid();
  const [, tag, encodedPayload, signature] = match;
  const message = signedPart(tag, encodedPayload);
  const signatureBytes = Buffer.from(signature, 'base64url');
  // base64url decoding ignores what it cannot read: the signature must re-encode to what was sent.
  if (signatureBytes.toString('base64url') !== signature) throw invalid();
  let valid: boolean;
  try {
    valid = verify(null, Buffer.from(message), publicKey, signatureBytes);
  } catch {
    valid = false;
  }
  if (!valid) throw invalid();
  const payload = decodePayload(encodedPayload);
  if (payload?.tag !== tag) throw invalid();
  if (!options.ignoreExpiry && Date.parse(payload.expiresAt) <= (options.now ?? new Date()).getTime()) {
    throw new AppError(
      'LICENSE_EXPIRED',
      `The licence "${payload.name}" expired on ${payload.expiresAt.slice(0, 10)}: ask your provider to extend it.`,
    );
  }
  return { payload, encodedPayload, prefix: `${keyScheme}${tag}` };
}

/** A public key given as base64 DER (SubjectPublicKeyInfo) or PEM. */
export function parsePublicKey(text: string): KeyObject {
  const trimmed = text.trim();
  const key = trimmed.startsWith('-----')
    ? createPublicKey(trimmed)
    : createPublicKey({ key: Buffer.from(trimmed, 'base64'), format: 'der', type: 'spki' });
  if (key.asymmetricKeyType !== 'ed25519') throw new Error('the licensing public key is not an Ed25519 key');
  return key;
}

export function exportPublicKey(key: KeyObject): string {
  return key.export({ format: 'der', type: 'spki' }).toString('base64');
}

/** A private key given as base64 DER (PKCS#8) or PEM. */
export function parsePrivateKey(text: string): KeyObject {
  const trimmed = text.trim();
  const key = trimmed.startsWith('-----')
    ? createPrivateKey(trimmed)
    : createPrivateKey({ key: Buffer.from(trimmed, 'base64'), format: 'der', type: 'pkcs8' });
  if (key.asymmetricKeyType !== 'ed25519') throw new Error('the licensing private key is not an Ed25519 key');
  return key;
}

export interface SigningKeys {
  privateKey: KeyObject;
  publicKey: KeyObject;
}

/**
 * The licence server's signing key pair: from configuration when given, otherwise generated on
 * first start and kept with the server secrets (so every process, and the CLI, signs alike).
 */
export async function licensingKeys(secrets: SecretStore, configured: string | null): Promise<SigningKeys> {
  const encoded =
    configured ??
    (await secrets.getOrCreate('licensing-ed25519-private-key', () =>
      generateKeyPairSync('ed25519').privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
    ));
  const privateKey = parsePrivateKey(encoded);
  return { privateKey, publicKey: createPublicKey(privateKey) };
}

/** JSON with object keys sorted, so that writer and reader sign the same bytes. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

/** HMAC-SHA256 of a report's fields (canonical JSON) keyed by the licence key, hex. */
export function reportSignature(licenceKey: string, fields: unknown): string {
  return createHmac('sha256', licenceKey).update(canonicalJson(fields)).digest('hex');
}

export function sameSignature(expected: string, actual: string): boolean {
  const a = Buffer.from(expected, 'hex');
  const b = Buffer.from(actual, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
