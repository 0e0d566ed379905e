import { type UserManagerSettings, WebStorageStateStore } from 'oidc-client-ts';
import { authPaths } from './authPaths';

/** The console's client at the identity provider (apps/server identity-provider.ts). */
export const consoleClientId = 'verbatim-console';
/** OpenID scopes, a refresh token, and the API resource's scope. */
export const consoleScopes = 'openid email profile offline_access api';

/** Settings of the UserManager for a console served at `origin`. */
export function oidcSettings(origin: string, store: Storage): UserManagerSettings {
  return {
    authority: `${origin}/oidc`,
    client_id: consoleClientId,
    redirect_uri: `${origin}${authPaths.loginSuccess}`,
    silent_redirect_uri: `${origin}${authPaths.tokenRenewSuccess}`,
    post_logout_redirect_uri: `${origin}${authPaths.logoutSuccess}`,
    scope: consoleScopes,
    response_type: 'code',
    userStore: new WebStorageStateStore({ store, prefix: 'verbatim.auth.' }),
    stateStore: new WebStorageStateStore({ store, prefix: 'verbatim.auth.state.' }),
    // Renews with the refresh token a minute before the access token expires.
    automaticSilentRenew: true,
    revokeTokenTypes: ['refresh_token'],
  };
}
