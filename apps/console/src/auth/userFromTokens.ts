import type { TokenResponse } from '@verbatim/contracts';
import { User, type UserProfile } from 'oidc-client-ts';

/** The claims of a JWT, without checking its signature: the token came straight from our issuer over TLS. */
export function decodeJwtPayload(jwt: string): Record<string, unknown> {
  const payload = jwt.split('.')[1];
  if (!payload) throw new Error('not a JWT');
  const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
  const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
  const claims: unknown = JSON.parse(new TextDecoder().decode(bytes));
  if (typeof claims !== 'object' || claims === null) throw new Error('JWT payload is not an object');
  return claims as Record<string, unknown>;
}

/**
 * The oidc-client-ts user of a token response obtained outside its own flows (password and
 * e-mail-verification grants), so that silent renewal and its events work on it as usual.
 */
export function userFromTokens(tokens: TokenResponse, nowSeconds = Math.floor(Date.now() / 1000)): User {
  const claims = tokens.id_token ? decodeJwtPayload(tokens.id_token) : decodeJwtPayload(tokens.access_token);
  if (typeof claims.sub !== 'string') throw new Error('the token names no subject');
  return new User({
    access_token: tokens.access_token,
    token_type: tokens.token_type,
    refresh_token: tokens.refresh_token,
    id_token: tokens.id_token,
    scope: tokens.scope,
    // The ID token's claims, which carry at least iss, sub, aud, exp and iat.
    profile: claims as UserProfile,
    expires_at: nowSeconds + tokens.expires_in,
  });
}
