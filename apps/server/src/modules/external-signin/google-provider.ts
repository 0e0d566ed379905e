import { z } from 'zod';
import type {
  AuthorizationRequest,
  CodeRedemption,
  ExternalIdentity,
  ExternalProvider,
} from './external-identity.js';
import { ExternalSignInError } from './external-identity.js';

const discoverySchema = z.object({
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  userinfo_endpoint: z.url(),
});
const tokenSchema = z.object({ access_token: z.string().min(1) });
const userinfoSchema = z.object({
  sub: z.string().min(1),
  email: z.string().optional(),
  email_verified: z.union([z.boolean(), z.enum(['true', 'false'])]).optional(),
  name: z.string().optional(),
});

async function json(response: Response, what: string): Promise<unknown> {
  if (!response.ok) throw new ExternalSignInError(`${what} answered ${response.status}`);
  return response.json();
}

/**
 * Google, spoken to as any OpenID Connect provider: endpoints from its discovery document, the
 * code exchanged with the client secret and PKCE, and the identity read from the userinfo endpoint
 * over the back channel.
 */
export class GoogleProvider implements ExternalProvider {
  readonly id = 'google';
  readonly name = 'Google';
  #discovery: Promise<z.infer<typeof discoverySchema>> | undefined;

  constructor(private readonly options: { clientId: string; clientSecret: string; issuer: string }) {}

  async authorizationUrl({ state, redirectUri, codeChallenge }: AuthorizationRequest) {
    const url = new URL((await this.#endpoints()).authorization_endpoint);
    url.search = new URLSearchParams({
      client_id: this.options.clientId,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'openid email profile',
      state,
      code_challenge: codeChallenge,
      code_challenge_method: 'S256',
    }).toString();
    return url.toString();
  }

  async identify({ code, redirectUri, codeVerifier }: CodeRedemption) {
    const endpoints = await this.#endpoints();
    const token = tokenSchema.parse(
      await json(
        await fetch(endpoints.token_endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: new URLSearchParams({
            grant_type: 'authorization_code',
            code,
            redirect_uri: redirectUri,
            code_verifier: codeVerifier,
            client_id: this.options.clientId,
            client_secret: this.options.clientSecret,
          }),
          signal: AbortSignal.timeout(10_000),
        }),
        'the token endpoint',
      ),
    );
    const user = userinfoSchema.parse(
      await json(
        await fetch(endpoints.userinfo_endpoint, {
          headers: { authorization: `Bearer ${token.access_token}`, accept: 'application/json' },
          signal: AbortSignal.timeout(10_000),
        }),
        'the userinfo endpoint',
      ),
    );
    return {
      provider: this.id,
      subject: user.sub,
      email: user.email?.toLowerCase() ?? null,
      emailVerified: user.email_verified === true || user.email_verified === 'true',
      name: user.name ?? null,
    } satisfies ExternalIdentity;
  }

  #endpoints() {
    const load = async () =>
      discoverySchema.parse(
        await json(
          await fetch(`${this.options.issuer}/.well-known/openid-configuration`, {
            signal: AbortSignal.timeout(10_000),
          }),
          'the discovery document',
        ),
      );
    // Cached once it succeeds; a failure is retried on the next sign-in.
    this.#discovery ??= load().catch((error: unknown) => {
      this.#discovery = undefined;
      throw error;
    });
    return this.#discovery;
  }
}
