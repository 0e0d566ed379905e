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

/** One third-party account provider, spoken to with the authorization code flow. */
export interface ExternalProvider {
  readonly id: ExternalProviderId;
  readonly name: string;
  /** Where to send the browser; `state` comes back unchanged with the code. */
  authorizationUrl(options: { state: string; redirectUri: string; codeChallenge: string }): Promise<string>;
  /** Exchanges the code (with the PKCE verifier) and asks the provider who the user is. */
  identify(options: { code: string; redirectUri: string; codeVerifier: string }): Promise<ExternalIdentity>;
}

/** The provider refused or failed; the user should try again. */
export class ExternalSignInError extends Error {}
