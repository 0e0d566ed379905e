import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors/app-error.js';
import {
  encodePayload,
  exportPublicKey,
  parsePublicKey,
  reportSignature,
  signLicenceKey,
  verifyLicenceKey,
  type LicencePayload,
} from './licence-keys.js';

const server = generateKeyPairSync('ed25519');
const otherServer = generateKeyPairSync('ed25519');

const terms: LicencePayload = {
  tag: 'k3y5t4g0',
  licenceId: 'lic_01testlicence',
  accountId: 'acc_01testaccount',
  name: 'Hôpital Saint-Louis',
  maxUses: 360_000,
  expiresAt: '2099-12-31T23:59:59.999Z',
  graceDays: 7,
  issuedAt: '2026-01-01T00:00:00.000Z',
};

function codeOf(work: () => unknown): string {
  try {
    work();
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
  return 'ACCEPTED';
}

describe('licence keys', () => {
  const key = signLicenceKey(server.privateKey, encodePayload(terms));
  const publicKey = parsePublicKey(exportPublicKey(server.publicKey));

  it('verify offline with the published public key and say what they licence', () => {
    expect(key.startsWith('vbl1_k3y5t4g0.')).toBe(true);
    const verified = verifyLicenceKey(publicKey, key);
    expect(verified.payload).toEqual(terms);
    expect(verified.prefix).toBe('vbl1_k3y5t4g0');
  });

  it('are refused as LICENSE_INVALID when any single character is changed', () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (let index = 0; index < key.length; index++) {
      const original = key[index] ?? '';
      const replacement = alphabet[(alphabet.indexOf(original) + 1) % alphabet.length] ?? 'A';
      const changed = `${key.slice(0, index)}${replacement}${key.slice(index + 1)}`;
      expect(
        codeOf(() => verifyLicenceKey(publicKey, changed)),
        `character ${index}`,
      ).toBe('LICENSE_INVALID');
    }
  });

  it('are refused as LICENSE_INVALID when another server signed them', () => {
    const foreign = signLicenceKey(otherServer.privateKey, encodePayload(terms));
    expect(codeOf(() => verifyLicenceKey(publicKey, foreign))).toBe('LICENSE_INVALID');
    // The same terms with the other server's signature grafted on.
    const grafted = `${key.slice(0, key.lastIndexOf('.'))}${foreign.slice(foreign.lastIndexOf('.'))}`;
    expect(codeOf(() => verifyLicenceKey(publicKey, grafted))).toBe('LICENSE_INVALID');
    expect(codeOf(() => verifyLicenceKey(publicKey, 'not a key'))).toBe('LICENSE_INVALID');
  });

  it('are refused as LICENSE_EXPIRED once past their expiry, unless only the signature matters', () => {
    const expired = signLicenceKey(
      server.privateKey,
      encodePayload({ ...terms, expiresAt: '2026-01-31T23:59:59.999Z' }),
    );
    const after = new Date('2026-02-01T00:00:00Z');
    expect(codeOf(() => verifyLicenceKey(publicKey, expired, { now: after }))).toBe('LICENSE_EXPIRED');
    expect(
      codeOf(() => verifyLicenceKey(publicKey, expired, { now: new Date('2026-01-31T12:00:00Z') })),
    ).toBe('ACCEPTED');
    expect(codeOf(() => verifyLicenceKey(publicKey, expired, { now: after, ignoreExpiry: true }))).toBe(
      'ACCEPTED',
    );
  });

  it('sign usage reports with an HMAC that does not depend on the order of fields', () => {
    const fields = { licenceId: 'lic_1', batches: [{ seconds: 3, batchId: 'b1' }] };
    const reordered = { batches: [{ batchId: 'b1', seconds: 3 }], licenceId: 'lic_1' };
    expect(reportSignature(key, fields)).toBe(reportSignature(key, reordered));
    expect(reportSignature(key, fields)).not.toBe(reportSignature(`${key}x`, fields));
    expect(reportSignature(key, fields)).not.toBe(
      reportSignature(key, { ...fields, batches: [{ seconds: 4, batchId: 'b1' }] }),
    );
  });
});
