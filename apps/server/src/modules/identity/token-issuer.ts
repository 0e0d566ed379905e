import type { TokenEndpointGrantContext } from 'oidc-provider';

/** Scopes of a first-party sign-in: identity, a refresh token, and the API. */
export const firstPartyOidcScopes = 'openid email profile offline_access';
export const apiScope = 'api';

export interface ResourceServerInfo {
  scope: string;
  audience: string;
  accessTokenFormat: 'jwt';
  accessTokenTTL: number;
  jwt: { sign: { alg: 'RS256' } };
}

/**
 * Issues the token response of a first-party grant (password, e-mail verification, third-party
 * sign-in) from the provider's own models, so refresh, revocation and userinfo work on them
 * exactly as on tokens from the authorization-code flow.
 */
export async function issueFirstPartyTokens(
  ctx: TokenEndpointGrantContext,
  account: { id: string; claims: Record<string, unknown> },
  grantType: string,
  api: { resource: string; info: ResourceServerInfo },
): Promise<void> {
  const accountId = account.id;
  const { provider, client } = ctx.oidc;
  const grant = new provider.Grant({ accountId, clientId: client.clientId });
  grant.addOIDCScope(firstPartyOidcScopes);
  grant.addResourceScope(api.resource, apiScope);
  const grantId = await grant.save();

  const accessToken = new provider.AccessToken({
    accountId,
    client,
    grantId,
    gty: grantType,
    scope: apiScope,
    resourceServer: new provider.ResourceServer(api.resource, api.info),
  });
  const accessTokenValue = await accessToken.save();

  const refreshToken = new provider.RefreshToken({
    accountId,
    client,
    grantId,
    gty: grantType,
    scope: `${firstPartyOidcScopes} ${apiScope}`,
    resource: api.resource,
    rotations: 0,
  });
  const refreshTokenValue = await refreshToken.save();

  const idToken = new provider.IdToken({ ...account.claims, sub: accountId }, { ctx, client });
  // `scope` decides which claims the ID token keeps; the typings do not declare it.
  (idToken as unknown as { scope: string }).scope = firstPartyOidcScopes;
  const idTokenValue = await idToken.issue({ use: 'idtoken' });

  ctx.set('cache-control', 'no-store');
  ctx.body = {
    access_token: accessTokenValue,
    token_type: 'Bearer',
    expires_in: accessToken.expiration,
    refresh_token: refreshTokenValue,
    id_token: idTokenValue,
    scope: `${firstPartyOidcScopes} ${apiScope}`,
  };
}
