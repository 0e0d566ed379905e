import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../errors/app-error.js';

/**
 * Webhook signatures in Stripe's scheme, for the sandbox: the header is `t=<unix seconds>,v1=<hex>`
 * where v1 is HMAC-SHA256(secret, "<t>.<exact body>"). Signing the timestamp with the body lets the
 * receiver refuse replays older than the tolerance; several v1 values may be present while a
 * secret is being rotated. A header made here verifies with Stripe's own SDK, and the reverse.
 */

/** Stripe's default: five minutes either way. */
export const defaultToleranceSeconds = 300;

function hmacHex(secret: string, timestamp: number, payload: Buffer | string): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(payload).digest('hex');
}

export function signatureHeader(
  payload: Buffer | string,
  secret: string,
  timestamp = Math.floor(Date.now() / 1000),
): string {
  return `t=${timestamp},v1=${hmacHex(secret, timestamp, payload)}`;
}

function invalid(reason: string): AppError {
  return new AppError('WEBHOOK_SIGNATURE_INVALID', `The webhook signature is not valid: ${reason}.`);
}

/** Throws WEBHOOK_SIGNATURE_INVALID unless the header signs these exact bytes, recently, with the secret. */
export function verifySignatureHeader(
  payload: Buffer,
  header: string | undefined,
  secret: string,
  options: { toleranceSeconds?: number; now?: Date } = {},
): void {
  if (!header) throw invalid('no signature header');
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const separator = part.indexOf('=');
    const key = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    if (key === 'v1' && /^[0-9a-f]{64}$/.test(value)) signatures.push(value);
  }
  if (timestamp === undefined || signatures.length === 0) throw invalid('the header is malformed');
  const expected = Buffer.from(hmacHex(secret, timestamp, payload), 'hex');
  const matches = signatures.some((signature) => timingSafeEqual(Buffer.from(signature, 'hex'), expected));
  if (!matches) throw invalid('no signature matches the body');
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(now - timestamp) > (options.toleranceSeconds ?? defaultToleranceSeconds)) {
    throw invalid('the timestamp is outside the tolerance');
  }
}
