import {
  externalAuthorizationSchema,
  type ExternalProviderId,
  externalProviderIdSchema,
  type ExternalProviders,
  externalProvidersSchema,
} from '@verbatim/contracts';
import { z } from 'zod';
import { apiRequest } from '../api/apiClient';
import { documentNavigation } from '../app/documentNavigation';

/** Who a new account is for (spec §4 Registration, registeredAs); kept across the provider's redirect. */
export type RegisteredAs = 'api' | 'console';

/** What the console keeps while the browser is away at the provider: one sign-in at a time. */
const pendingSignInSchema = z.object({
  state: z.string(),
  codeVerifier: z.string(),
  registeredAs: z.enum(['api', 'console']),
  /** Set when the sign-in answers another application's sign-in step (/interaction/{uid}). */
  interactionUid: z.string().optional(),
});
type PendingSignIn = z.infer<typeof pendingSignInSchema>;

const pendingSignInKey = 'verbatim.externalSignIn';

export const externalProvidersQueryKey = ['auth', 'external-providers'] as const;

export function fetchExternalProviders(signal?: AbortSignal): Promise<ExternalProviders> {
  return apiRequest('/auth/external-providers', { schema: externalProvidersSchema, signal });
}

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

const randomText = (byteCount: number) => base64url(crypto.getRandomValues(new Uint8Array(byteCount)));

async function pkceChallenge(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64url(new Uint8Array(digest));
}

/**
 * Sends the browser to the provider. The state names the provider (spec §9) and is random beyond
 * it, so a redirect the console did not start is refused; the PKCE verifier never leaves this tab.
 */
export async function startExternalSignIn(
  provider: ExternalProviderId,
  { registeredAs, interactionUid }: { registeredAs: RegisteredAs; interactionUid?: string | undefined },
) {
  const pending: PendingSignIn = {
    state: `${provider}.${randomText(24)}`,
    codeVerifier: randomText(32),
    registeredAs,
    ...(interactionUid ? { interactionUid } : {}),
  };
  const query = new URLSearchParams({
    state: pending.state,
    codeChallenge: await pkceChallenge(pending.codeVerifier),
  });
  const { url } = await apiRequest(`/auth/external-providers/${provider}/authorization-url?${query}`, {
    schema: externalAuthorizationSchema,
  });
  sessionStorage.setItem(pendingSignInKey, JSON.stringify(pending));
  documentNavigation.assign(url);
}

export interface ReturnedSignIn {
  provider: ExternalProviderId;
  codeVerifier: string;
  registeredAs: RegisteredAs;
  interactionUid?: string | undefined;
}

/**
 * The sign-in this tab started, if `state` is the one it sent; forgotten either way, since a code
 * is good once. Undefined means a redirect this tab did not ask for.
 */
export function takeReturnedSignIn(state: string): ReturnedSignIn | undefined {
  const stored = sessionStorage.getItem(pendingSignInKey);
  sessionStorage.removeItem(pendingSignInKey);
  if (stored === null) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(stored);
  } catch {
    return undefined;
  }
  const pending = pendingSignInSchema.safeParse(parsed);
  if (!pending.success || pending.data.state !== state) return undefined;
  const provider = externalProviderIdSchema.safeParse(state.split('.')[0]);
  if (!provider.success) return undefined;
  return {
    provider: provider.data,
    codeVerifier: pending.data.codeVerifier,
    registeredAs: pending.data.registeredAs,
    interactionUid: pending.data.interactionUid,
  };
}
