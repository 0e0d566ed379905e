/**
 * How the API client learns about the session without importing it: the auth module connects
 * itself at start-up (and tests connect a stand-in).
 */
export interface ApiAuth {
  /** The bearer token to send, when signed in. */
  accessToken: () => string | undefined;
  /** A 401 UNAUTHENTICATED answer: the token is missing, bad or expired (spec §4 Session expiry). */
  onUnauthenticated: () => void;
}

let connected: ApiAuth | undefined;

export function connectApiAuth(auth: ApiAuth | undefined): void {
  connected = auth;
}

export function apiAuth(): ApiAuth | undefined {
  return connected;
}
