import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors/app-error.js';
import { signatureHeader, verifySignatureHeader } from './webhook-signature.js';

const secret = 'whsec_test_secret_for_signatures';
const payload = Buffer.from(JSON.stringify({ id: 'evt_1', object: 'event', amount: 1210 }));
const stripe = new Stripe('sk_test_unused');

function rejection(run: () => void): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('WEBHOOK_SIGNATURE_INVALID');
    expect((error as AppError).statusCode).toBe(400);
    return (error as AppError).message;
  }
}

describe('webhook signatures (Stripe scheme)', () => {
  it('produces exactly the header Stripe produces for the same body, secret and time', () => {
    const timestamp = 1_770_000_000;
    expect(signatureHeader(payload, secret, timestamp)).toBe(
      stripe.webhooks.generateTestHeaderString({ payload: payload.toString(), secret, timestamp }),
    );
  });

  it("accepts Stripe's own signed header, and Stripe's SDK accepts ours", () => {
    const theirs = stripe.webhooks.generateTestHeaderString({ payload: payload.toString(), secret });
    expect(rejection(() => verifySignatureHeader(payload, theirs, secret))).toBeUndefined();
    const event = stripe.webhooks.constructEvent(payload, signatureHeader(payload, secret), secret);
    expect(event.id).toBe('evt_1');
  });

  it('refuses a body changed by one byte, another secret, a missing or malformed header', () => {
    const header = signatureHeader(payload, secret);
    const tampered = Buffer.from(payload.toString().replace('1210', '1211'));
    expect(rejection(() => verifySignatureHeader(tampered, header, secret))).toMatch(/no signature matches/);
    expect(rejection(() => verifySignatureHeader(payload, header, 'whsec_other'))).toMatch(
      /no signature matches/,
    );
    expect(rejection(() => verifySignatureHeader(payload, undefined, secret))).toMatch(/no signature header/);
    expect(rejection(() => verifySignatureHeader(payload, 'v1=abc', secret))).toMatch(/malformed/);
    expect(rejection(() => verifySignatureHeader(payload, header.replace(/v1=/, 'v0='), secret))).toMatch(
      /malformed/,
    );
  });

  it('refuses a replay outside the five-minute tolerance, in either direction', () => {
    const now = new Date('2026-03-01T12:00:00Z');
    const at = (offsetSeconds: number) =>
      signatureHeader(payload, secret, Math.floor(now.getTime() / 1000) + offsetSeconds);
    expect(rejection(() => verifySignatureHeader(payload, at(-299), secret, { now }))).toBeUndefined();
    expect(rejection(() => verifySignatureHeader(payload, at(-301), secret, { now }))).toMatch(/tolerance/);
    expect(rejection(() => verifySignatureHeader(payload, at(301), secret, { now }))).toMatch(/tolerance/);
    expect(
      rejection(() => verifySignatureHeader(payload, at(-3600), secret, { now, toleranceSeconds: 7200 })),
    ).toBeUndefined();
  });

  it('accepts any of several v1 signatures, as while a secret is rotated', () => {
    const timestamp = Math.floor(Date.now() / 1000);
    const old = signatureHeader(payload, 'whsec_old', timestamp).split(',')[1];
    const header = `${signatureHeader(payload, secret, timestamp)},${old}`;
    expect(rejection(() => verifySignatureHeader(payload, header, 'whsec_old'))).toBeUndefined();
    expect(rejection(() => verifySignatureHeader(payload, header, secret))).toBeUndefined();
  });
});
