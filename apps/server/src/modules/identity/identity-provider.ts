import Provider, {
  errors,
  type Configuration,
  type KoaContextWithOIDC,
  type TokenEndpointGrantContext,
} from 'oidc-provider';
import type { Logger } from 'pino';
import type { Config } from '../../config/config.js';
import { AppError } from '../../errors/app-error.js';
import type { Db } from '../../platform/db/database.js';
import type { Account, AccountsRepository } from '../accounts/accounts.repository.js';
import type { AuditContext } from '../accounts/audit-log.js';
import {
  deviceSuccessPage,
  logoutPage,
  postLogoutPage,
  userCodeConfirmPage,
  userCodeInputPage,
} from './provider-pages.js';
import { OidcAdapter } from './oidc-adapter.js';
import { assertMaySignIn, type SignInService } from './sign-in.service.js';
import type { IdentityKeys } from './signing-keys.js';
import {
  apiScope,
  firstPartyOidcScopes,
  issueFirstPartyTokens,
  type ResourceServerInfo,
} from './token-issuer.js';

/** The console: a public client (no secret) using PKCE, trusted, so it is never asked for consent. */
export const consoleClientId = 'verbatim-console';

/** Opening the link of the verification e-mail signs the user in: the link's code is exchanged here. */
export const emailVerificationGrantType = 'urn:verbatim:params:oauth:grant-type:email-verification';

export interface IdentityProviderDependencies {
  config: Config;
  logger: Logger;
  db: Db;
  keys: IdentityKeys;
  accounts: AccountsRepository;
  signIn: SignInService;
  /** Redeems the code of a verification e-mail and returns the verified account. */
  verifyEmail: (code: string, context: { ip: string; userAgent: string | null }) => Promise<Account>;
  /** Signs in with a code from Google or GitHub (the spec's third_party grant). */
  signInExternally: (
    request: { provider: string; code: string; codeVerifier: string; registeredAs: string },
    context: AuditContext,
  ) => Promise<Account>;
}

/** Answers a grant failure with our error shape and status (spec §4: 401, 403, 429), not OAuth's 400. */
async function answeringAppErrors(ctx: TokenEndpointGrantContext, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    ctx.status = error.statusCode;
    ctx.set('cache-control', 'no-store');
    ctx.body = {
      code: error.code,
      message: error.message,
      ...(error.details ? { details: error.details } : {}),
    };
  }
}

/** What the ID token and userinfo say about an account. */
export function accountClaims(account: Account): Record<string, unknown> {
  return {
    sub: account.id,
    email: account.email,
    email_verified: account.email_verified_at !== null,
    name: account.full_name ?? undefined,
    locale: account.language,
  };
}

function clientAddress(ctx: KoaContextWithOIDC): { ip: string; userAgent: string | null } {
  return { ip: ctx.ip, userAgent: ctx.get('user-agent') || null };
}

export function createIdentityProvider(deps: IdentityProviderDependencies): Provider {
  const { config, db, keys, accounts } = deps;
  const { identity, http } = config;
  const apiResource: { resource: string; info: ResourceServerInfo } = {
    resource: identity.apiResource,
    info: {
      scope: apiScope,
      audience: identity.apiResource,
      accessTokenFormat: 'jwt',
      accessTokenTTL: identity.accessTokenTtlSeconds,
      jwt: { sign: { alg: 'RS256' } },
    },
  };

  const configuration: Configuration = {
    adapter: (kind: string) => new OidcAdapter(db, kind),
    clients: [
      {
        client_id: consoleClientId,
        client_name: config.console.productName,
        application_type: 'web',
        token_endpoint_auth_method: 'none',
        grant_types: [
          'authorization_code',
          'refresh_token',
          'password',
          emailVerificationGrantType,
          'third_party',
        ],
        response_types: ['code'],
        redirect_uris: [`${http.publicUrl}/auth/login-success`, `${http.publicUrl}/auth/token-renew-success`],
        post_logout_redirect_uris: [`${http.publicUrl}/auth/logout-success`],
      },
      ...identity.thirdPartyClients,
    ],
    jwks: { keys: [keys.signingKey] },
    cookies: { keys: keys.cookieKeys },
    // `api` is not listed here: it is the scope of the API resource (resourceIndicators below).
    scopes: ['openid', 'email', 'profile', 'offline_access'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'locale'] },
    findAccount: async (_ctx, sub) => {
      const account = await accounts.findById(sub);
      if (!account || account.status !== 'active') return undefined;
      return { accountId: account.id, claims: () => ({ sub: account.id, ...accountClaims(account) }) };
    },
    pkce: { required: () => true },
    // The grant behind an access token, so a password change can keep the session that made it.
    extraTokenClaims: (_ctx, token) =>
      token.kind === 'AccessToken' && token.grantId ? { grant: token.grantId } : undefined,
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      deviceFlow: {
        enabled: true,
        charset: 'base-20',
        mask: '****-****',
        userCodeInputSource: (ctx, form, out, error) => userCodeInputPage(ctx, form, out, error),
        userCodeConfirmSource: (ctx, form, client, deviceInfo, userCode) =>
          userCodeConfirmPage(ctx, form, client, deviceInfo, userCode),
        successSource: (ctx) => deviceSuccessPage(ctx),
      },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx, form) => logoutPage(ctx, form),
        postLogoutSuccessSource: (ctx) => postLogoutPage(ctx),
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => identity.apiResource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resourceIndicator) => {
          if (resourceIndicator !== identity.apiResource) throw new errors.InvalidTarget();
          return apiResource.info;
        },
      },
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    // First-party: the console's grants are implied; third-party clients still see the consent prompt.
    loadExistingGrant: async (ctx) => {
      const { client, session, result } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const grantId =
        (result?.consent as { grantId?: string } | undefined)?.grantId ?? session.grantIdFor(client.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      if (client.clientId !== consoleClientId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope(firstPartyOidcScopes);
      grant.addResourceScope(identity.apiResource, apiScope);
      await grant.save();
      return grant;
    },
    ttl: {
      AccessToken: identity.accessTokenTtlSeconds,
      RefreshToken: identity.refreshTokenTtlSeconds,
      Session: identity.sessionTtlSeconds,
      Grant: identity.refreshTokenTtlSeconds,
      Interaction: 3600,
      AuthorizationCode: 60,
      IdToken: 3600,
      DeviceCode: 600,
    },
    // Browsers send an Origin header with every POST: the console may call the provider from the
    // product's own origin; no other origin may call it from a browser.
    clientBasedCORS: (_ctx, origin, client) =>
      client.clientId === consoleClientId && origin === new URL(http.publicUrl).origin,
    renderError: (ctx, out) => {
      ctx.type = 'json';
      ctx.body = out;
    },
  };

  const provider = new Provider(identity.issuer, configuration);
  // identity.routes.ts sets the forwarded headers itself from PUBLIC_URL and the client address.
  provider.proxy = true;
  provider.on('server_error', (_ctx: unknown, error: unknown) =>
    deps.logger.error({ err: error }, 'identity provider error'),
  );

  provider.registerGrantType(
    'password',
    (ctx) =>
      answeringAppErrors(ctx, async () => {
        const { username, password, reCaptchaKey } = ctx.oidc.params as Record<string, unknown>;
        if (typeof username !== 'string' || typeof password !== 'string' || !username || !password) {
          throw new AppError('INVALID_CREDENTIALS', 'Wrong username or password.');
        }
        const account = await deps.signIn.signInWithPassword({
          email: username,
          password,
          ...(typeof reCaptchaKey === 'string' ? { captcha: reCaptchaKey } : {}),
          context: clientAddress(ctx),
        });
        await issueFirstPartyTokens(
          ctx,
          { id: account.id, claims: accountClaims(account) },
          'password',
          apiResource,
        );
      }),
    ['username', 'password', 'reCaptchaKey', 'scope'],
  );

  provider.registerGrantType(
    emailVerificationGrantType,
    (ctx) =>
      answeringAppErrors(ctx, async () => {
        const { code } = ctx.oidc.params as Record<string, unknown>;
        if (typeof code !== 'string' || !code) {
          throw new AppError('BAD_TOKEN', 'This link is not valid or has already been used.');
        }
        const account = await deps.verifyEmail(code, clientAddress(ctx));
        // Verified, but an account that waits for approval still may not sign in.
        assertMaySignIn(account);
        await issueFirstPartyTokens(
          ctx,
          { id: account.id, claims: accountClaims(account) },
          'email_verification',
          apiResource,
        );
      }),
    ['code'],
  );

  provider.registerGrantType(
    'third_party',
    (ctx) =>
      answeringAppErrors(ctx, async () => {
        const params = ctx.oidc.params as Record<string, unknown>;
        const text = (name: string) => (typeof params[name] === 'string' ? params[name] : '');
        if (!text('code') || !text('provider') || !text('code_verifier')) {
          throw new AppError('BAD_REQUEST', 'code, provider and code_verifier are required.');
        }
        const account = await deps.signInExternally(
          {
            provider: text('provider'),
            code: text('code'),
            codeVerifier: text('code_verifier'),
            registeredAs: text('registeredAs') || 'api',
          },
          clientAddress(ctx),
        );
        assertMaySignIn(account);
        await issueFirstPartyTokens(
          ctx,
          { id: account.id, claims: accountClaims(account) },
          'third_party',
          apiResource,
        );
      }),
    ['code', 'provider', 'code_verifier', 'registeredAs'],
  );

  return provider;
}
