import { z } from 'zod';
import type {
  AuthorizationRequest,
  CodeRedemption,
  ExternalIdentity,
  ExternalProvider,
} from './external-identity.js';
import { ExternalSignInError } from './external-identity.js';

const tokenSchema = z.object({ access_token: z.string().min(1) }).or(z.object({ error: z.string() }));
const userSchema = z.object({
  id: z.number().int(),
  login: z.string(),
  name: z.string().nullable().optional(),
});
const emailsSchema = z.array(z.object({ email: z.string(), primary: z.boolean(), verified: z.boolean() }));

/** GitHub's OAuth apps: the code exchanged for a token, then the user and its verified primary e-mail. */
export class GithubProvider implements ExternalProvider {
  readonly id = 'github';
  readonly name = 'GitHub';

  constructor(
    private readonly options: { clientId: string; clientSecret: string; webUrl: string; apiUrl: string },
  ) {}

  authorizationUrl({ state, redirectUri, codeChallenge }: AuthorizationRequest) {
    const url = new URL(`${this.options.webUrl}/login/oauth/authorize`);
    url.search = new URLSearchParams({
      client_id: this.options.clientId,
      redirect_uri: redirectUri,
      scope: 'read:user user:email',
      state,
      code_challenge: codeChallenge,
      code_challenge_method: 'S256',
      allow_signup: 'true',
    }).toString();
    return Promise.resolve(url.toString());
  }

  async identify({ code, redirectUri, codeVerifier }: CodeRedemption) {
    const tokenResponse = await fetch(`${this.options.webUrl}/login/oauth/access_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        client_id: this.options.clientId,
        client_secret: this.options.clientSecret,
        code,
        redirect_uri: redirectUri,
        code_verifier: codeVerifier,
      }),
      signal: AbortSignal.timeout(10_000),
    });
    if (!tokenResponse.ok)
      throw new ExternalSignInError(`GitHub's token endpoint answered ${tokenResponse.status}`);
    const token = tokenSchema.parse(await tokenResponse.json());
    // GitHub answers a bad code with 200 and an error field.
    if ('error' in token) throw new ExternalSignInError(`GitHub refused the code: ${token.error}`);
    const api = (path: string) =>
      fetch(`${this.options.apiUrl}${path}`, {
        headers: {
          authorization: `Bearer ${token.access_token}`,
          accept: 'application/vnd.github+json',
          'user-agent': 'Verbatim',
        },
        signal: AbortSignal.timeout(10_000),
      });
    const [userResponse, emailsResponse] = await Promise.all([api('/user'), api('/user/emails')]);
    if (!userResponse.ok || !emailsResponse.ok)
      throw new ExternalSignInError('GitHub did not say who the user is');
    const user = userSchema.parse(await userResponse.json());
    const primary = emailsSchema.parse(await emailsResponse.json()).find((email) => email.primary);
    return {
      provider: this.id,
      subject: String(user.id),
      email: primary?.email.toLowerCase() ?? null,
      emailVerified: primary?.verified ?? false,
      name: user.name ?? user.login,
    } satisfies ExternalIdentity;
  }
}
