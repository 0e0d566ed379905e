import { describe, expect, it } from 'vitest';
import { decodeJwtPayload, userFromTokens } from './userFromTokens';

function jwt(claims: object): string {
  // base64url of the UTF-8 bytes, as a real issuer writes it.
  const encode = (part: object) =>
    btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify(part))))
      .replace(/=+$/, '')
      .replace(/\+/g, '-')
      .replace(/\//g, '_');
  return `${encode({ alg: 'RS256' })}.${encode(claims)}.signature`;
}

describe('userFromTokens', () => {
  it('builds an oidc-client-ts user from a token response, claims from the ID token', () => {
    const user = userFromTokens(
      {
        access_token: 'access',
        token_type: 'Bearer',
        expires_in: 900,
        refresh_token: 'refresh',
        id_token: jwt({ sub: 'u1', email: 'ada@example.com', name: 'Adà' }),
        scope: 'openid api',
      },
      1_000,
    );

    expect(user).toMatchObject({ access_token: 'access', refresh_token: 'refresh', expires_at: 1_900 });
    expect(user.profile).toMatchObject({ sub: 'u1', email: 'ada@example.com', name: 'Adà' });
  });

  it('rejects a token without a subject', () => {
    expect(() => userFromTokens({ access_token: jwt({}), token_type: 'Bearer', expires_in: 1 })).toThrow(
      /subject/,
    );
    expect(() => decodeJwtPayload('nope')).toThrow();
  });
});
