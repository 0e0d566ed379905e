import { z } from 'zod';

/** The OAuth 2.0 token response of the identity provider. */
export const tokenResponseSchema = z
  .object({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int().positive(),
    refresh_token: z.string().optional(),
    id_token: z.string().optional(),
    scope: z.string().optional(),
  })
  .meta({ id: 'TokenResponse' });
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

/** What the console's /interaction/{uid} page shows: a sign-in form, or the consent prompt. */
export const interactionDetailsSchema = z
  .object({
    uid: z.string(),
    prompt: z.enum(['login', 'consent']),
    client: z.object({ id: z.string(), name: z.string() }),
    /** Scopes the application asks for that the user has not granted yet (consent only). */
    requestedScopes: z.array(z.string()),
  })
  .meta({ id: 'InteractionDetails' });
export type InteractionDetails = z.infer<typeof interactionDetailsSchema>;

export const interactionLoginRequestSchema = z
  .object({
    username: z.string().trim().min(1).max(320),
    password: z.string().min(1).max(1024),
    reCaptchaKey: z.string().max(8192).optional(),
  })
  .meta({ id: 'InteractionLoginRequest' });

export const interactionRedirectSchema = z
  .object({ redirectTo: z.string() })
  .meta({ id: 'InteractionRedirect' });

/** The third-party account providers this installation offers (their buttons are hidden otherwise). */
export const externalProviderIdSchema = z.enum(['google', 'github']);
export type ExternalProviderId = z.infer<typeof externalProviderIdSchema>;

export const externalProvidersSchema = z
  .array(z.object({ id: externalProviderIdSchema, name: z.string() }))
  .meta({ id: 'ExternalProviders' });
export type ExternalProviders = z.infer<typeof externalProvidersSchema>;

export const externalAuthorizationQuerySchema = z.object({
  /** Comes back with the code; starts with the provider's id ("google." or "github."), as the spec wants. */
  state: z.string().regex(/^(google|github)\.[\w-]{16,128}$/),
  /** PKCE: base64url SHA-256 of the verifier the console keeps. */
  codeChallenge: z.string().regex(/^[\w-]{43}$/),
});

export const externalAuthorizationSchema = z.object({ url: z.url() }).meta({ id: 'ExternalAuthorization' });

/** Signing in at an interaction with the code Google or GitHub sent back to /auth/login/external. */
export const interactionExternalLoginRequestSchema = z
  .object({
    provider: externalProviderIdSchema,
    code: z.string().min(1).max(4096),
    /** PKCE: the verifier of the challenge sent with the authorization URL. */
    codeVerifier: z.string().regex(/^[\w-]{43,128}$/),
    registeredAs: z.enum(['api', 'console']).default('api'),
  })
  .meta({ id: 'InteractionExternalLoginRequest' });
export type InteractionExternalLoginRequest = z.infer<typeof interactionExternalLoginRequestSchema>;
