import { type TokenResponse, tokenResponseSchema } from '@verbatim/contracts';
import { apiRequest } from '../api/apiClient';
import { consoleClientId } from './oidcSettings';

/** The e-mail verification grant of our identity provider: the code of the verification link. */
export const emailVerificationGrantType = 'urn:verbatim:params:oauth:grant-type:email-verification';

/** A token request at /auth/profile/verify, the API's address of the token endpoint. */
function requestTokens(parameters: Record<string, string>): Promise<TokenResponse> {
  return apiRequest('/auth/profile/verify', {
    method: 'POST',
    schema: tokenResponseSchema,
    body: new URLSearchParams({ client_id: consoleClientId, ...parameters }),
  });
}

export interface PasswordCredentials {
  username: string;
  password: string;
  /** The captcha solution, once the server requires it. */
  reCaptchaKey?: string | undefined;
}

export function passwordGrant({ username, password, reCaptchaKey }: PasswordCredentials) {
  return requestTokens({
    grant_type: 'password',
    username,
    password,
    ...(reCaptchaKey ? { reCaptchaKey } : {}),
  });
}

export function emailVerificationGrant(code: string) {
  return requestTokens({ grant_type: emailVerificationGrantType, code });
}

export interface ThirdPartyGrant {
  provider: string;
  code: string;
  codeVerifier: string;
  registeredAs: string;
}

/** The spec's third_party grant: the provider's code, redeemed with the verifier this tab kept. */
export function thirdPartyGrant({ provider, code, codeVerifier, registeredAs }: ThirdPartyGrant) {
  return requestTokens({
    grant_type: 'third_party',
    provider,
    code,
    code_verifier: codeVerifier,
    registeredAs,
  });
}
