/** Who a third-party account provider says the user is. */
export interface ExternalIdentity {
  provider: ExternalProviderId;
  /** The provider's stable id of the user. */
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
}

export const externalProviderIds = ['google', 'github'] as const;
export type ExternalProviderId = (typeof externalProviderIds)[number];

/** What starting a sign-in at a provider takes: `state` comes back unchanged with the code. */
export interface AuthorizationRequest {
  state: string;
  redirectUri: string;
  /** The PKCE challenge of the verifier that `identify` sends with the code. */
  codeChallenge: string;
}

/** What the provider's code is redeemed with: the same redirect address and the PKCE verifier. */
export interface CodeRedemption {
  code: string;
  redirectUri: string;
  codeVerifier: string;
}

/** One third-party account provider, spoken to with the authorization code flow. */
export interface ExternalProvider {
  readonly id: ExternalProviderId;
  readonly name: string;
  /** Where to send the browser. */
  authorizationUrl(request: AuthorizationRequest): Promise<string>;
  /** Exchanges the code (with the PKCE verifier) and asks the provider who the user is. */
  identify(redemption: CodeRedemption): Promise<ExternalIdentity>;
}

/** The provider refused or failed; the user should try again. */
export class ExternalSignInError extends Error {}
