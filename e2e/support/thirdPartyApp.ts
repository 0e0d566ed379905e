/** An application other than the console, signing users in through our identity provider (OIDC_CLIENTS). */
export const thirdPartyAppClientId = 'journey-notes-app';
export const thirdPartyAppName = 'Journey Notes';
/** Where the app receives its code: a path of the product itself, so the browser has somewhere to land. */
export const thirdPartyAppCallbackPath = '/journey-notes/callback';

export function thirdPartyApp(productBaseUrl: string) {
  return {
    client_id: thirdPartyAppClientId,
    client_name: thirdPartyAppName,
    token_endpoint_auth_method: 'none',
    redirect_uris: [`${productBaseUrl}${thirdPartyAppCallbackPath}`],
    grant_types: ['authorization_code'],
    response_types: ['code'],
  };
}
