import { generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { encodePayload, exportPublicKey, signLicenceKey } from '../modules/licences/licence-keys.js';

const dayMs = 86_400_000;

/**
 * A licence server's key pair held by a test, which signs keys as the licence server does — so an
 * installation can be given terms the CLI refuses to issue (an expiry in the past, a few seconds).
 */
export interface TestLicenceSigner {
  /** The value of LICENSE_PUBLIC_KEY for installations that trust this signer. */
  publicKey: string;
  key(terms: { expiresAt: Date; maxUses: number; graceDays?: number; name?: string }): string;
}

export function testLicenceSigner(): TestLicenceSigner {
  const pair: { privateKey: KeyObject; publicKey: KeyObject } = generateKeyPairSync('ed25519');
  return {
    publicKey: exportPublicKey(pair.publicKey),
    key: ({ expiresAt, maxUses, graceDays = 7, name = 'Hospital' }) =>
      signLicenceKey(
        pair.privateKey,
        encodePayload({
          tag: randomUUID().replace(/-/g, '').slice(0, 8),
          licenceId: `lic_${randomUUID()}`,
          accountId: 'acc_licence_owner',
          name,
          maxUses,
          expiresAt: expiresAt.toISOString(),
          graceDays,
          issuedAt: new Date(Date.now() - 400 * dayMs).toISOString(),
        }),
      ),
  };
}
