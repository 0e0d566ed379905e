import { createLocalJWKSet, jwtVerify, type JWK } from 'jose';

export interface VerifiedAccessToken {
  accountId: string;
  scopes: Set<string>;
  clientId: string | undefined;
  /** The grant (sign-in) the token was issued under. */
  grantId: string | undefined;
}

/**
 * Verifies the API's access tokens locally, with the issuer's public key: no call to the provider
 * per request, so any API process can check any token.
 */
export class AccessTokenVerifier {
  readonly #keys: ReturnType<typeof createLocalJWKSet>;

  constructor(
    publicKey: JWK,
    private readonly issuer: string,
    private readonly audience: string,
  ) {
    this.#keys = createLocalJWKSet({ keys: [publicKey] });
  }

  /** Throws when the token is malformed, expired, not ours, or not meant for the API. */
  async verify(token: string): Promise<VerifiedAccessToken> {
    const { payload } = await jwtVerify(token, this.#keys, {
      issuer: this.issuer,
      audience: this.audience,
      algorithms: ['RS256'],
      typ: 'at+jwt',
    });
    if (typeof payload.sub !== 'string' || !payload.sub) throw new Error('access token without subject');
    const scope = typeof payload.scope === 'string' ? payload.scope : '';
    return {
      accountId: payload.sub,
      scopes: new Set(scope.split(' ').filter(Boolean)),
      clientId: typeof payload.client_id === 'string' ? payload.client_id : undefined,
      grantId: typeof payload.grant === 'string' ? payload.grant : undefined,
    };
  }
}
