import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { randomSecret } from '../../platform/crypto/tokens.js';
import type { SecretStore } from '../../platform/crypto/secret-store.js';

export interface IdentityKeys {
  /** Private signing key of the token issuer (RS256). */
  signingKey: JWK;
  /** Its public half, for verifying access tokens locally. */
  publicKey: JWK;
  /** Keys that sign the provider's cookies. */
  cookieKeys: string[];
}

/** Generated on first start and stored, so every process and every restart signs with the same keys. */
export async function loadIdentityKeys(secrets: SecretStore): Promise<IdentityKeys> {
  const signingKey = JSON.parse(
    await secrets.getOrCreate('oidc-signing-key', async () => {
      const { privateKey } = await generateKeyPair('RS256', { extractable: true, modulusLength: 2048 });
      return JSON.stringify({
        ...(await exportJWK(privateKey)),
        kid: randomUUID(),
        alg: 'RS256',
        use: 'sig',
      });
    }),
  ) as JWK;
  const cookieKeys = JSON.parse(
    await secrets.getOrCreate('oidc-cookie-keys', () => JSON.stringify([randomSecret()])),
  ) as string[];
  const { kty, n, e, kid, alg, use } = signingKey;
  return { signingKey, publicKey: { kty, n, e, kid, alg, use }, cookieKeys };
}
