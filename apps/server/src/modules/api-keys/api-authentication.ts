import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { AppError } from '../../errors/app-error.js';
import { accountOfAccessToken } from '../../http/authenticate.js';
import type { Account, AccountsRepository } from '../accounts/accounts.repository.js';
import type { AccessTokenVerifier } from '../identity/access-token-verifier.js';
import { hashApiKeySecret, looksLikeApiKey } from './api-key-secret.js';
import type { ApiKeysService } from './api-keys.service.js';
import type { ApiKeyRecord } from './api-keys.repository.js';
import type { FailedAttempts } from './failed-attempts.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The API key the request authenticated with; absent for a console access token. */
    apiKey?: ApiKeyRecord;
  }
}

/** Who is calling the public API: the account, and the key used (null for a console access token). */
export interface ApiPrincipal {
  account: Account;
  apiKey: ApiKeyRecord | null;
  grantId?: string;
}

const missingCredential =
  'Authenticate with an API key ("Authorization: Bearer <key>" or "x-api-key: <key>") or a console access token.';

/**
 * The one authentication of the public API: a console access token (a JWT of the identity
 * provider) or an API key, told apart by the key's `vbt_` prefix, sent as
 * `Authorization: Bearer …` or `x-api-key: …` (and, for the streaming socket, where browsers
 * cannot set headers, as the `accessToken` query parameter). Failed API key attempts are throttled
 * per client address; valid keys never are.
 */
export class ApiAuthenticator {
  constructor(
    private readonly verifier: AccessTokenVerifier,
    private readonly accounts: AccountsRepository,
    private readonly apiKeys: ApiKeysService,
    private readonly failures: FailedAttempts,
  ) {}

  /** The onRequest hook of public API routes: sets `request.account` and `request.apiKey`. */
  readonly hook: onRequestAsyncHookHandler = async (request, reply) => {
    this.#attach(request, await this.authenticate(credentialOf(request), request.ip, reply));
  };

  /** For the streaming socket's upgrade request: the headers, or else the `accessToken` query parameter. */
  async authenticateSocket(request: FastifyRequest, reply?: FastifyReply): Promise<ApiPrincipal> {
    const principal = await this.authenticate(
      credentialOf(request) ?? queryAccessToken(request),
      request.ip,
      reply,
    );
    this.#attach(request, principal);
    return principal;
  }

  /**
   * UNAUTHENTICATED for a missing or bad credential; RATE_LIMITED for a bad key once `address` has
   * sent too many. A valid key is accepted whatever the address sent before.
   */
  async authenticate(
    credential: string | undefined,
    address: string,
    reply?: FastifyReply,
  ): Promise<ApiPrincipal> {
    if (!credential) throw new AppError('UNAUTHENTICATED', missingCredential);
    if (!looksLikeApiKey(credential)) {
      const { account, grantId } = await accountOfAccessToken(this.verifier, this.accounts, credential);
      return { account, apiKey: null, ...(grantId ? { grantId } : {}) };
    }
    // Only failures are throttled: a valid key is looked up and accepted from a throttled address
    // too (see FailedAttempts for what the throttle protects).
    const waitMs = this.failures.retryAfterMs(address);
    const keyHash = hashApiKeySecret(credential);
    if (waitMs > 0 && this.failures.failedBefore(address, keyHash)) throw tooManyFailures(waitMs, reply);
    const checked = await this.apiKeys.check(credential);
    if (!checked.valid) {
      this.failures.recordFailure(address, checked.hopeless ? keyHash : undefined);
      if (waitMs > 0) throw tooManyFailures(waitMs, reply);
      throw new AppError('UNAUTHENTICATED', 'This API key is not valid: it is unknown, revoked or expired.');
    }
    return { account: checked.account, apiKey: checked.key };
  }

  #attach(request: FastifyRequest, principal: ApiPrincipal): void {
    request.account = principal.account;
    if (principal.apiKey) request.apiKey = principal.apiKey;
    if (principal.grantId) request.grantId = principal.grantId;
  }
}

function tooManyFailures(waitMs: number, reply: FastifyReply | undefined): AppError {
  const seconds = Math.ceil(waitMs / 1000);
  reply?.header('retry-after', String(seconds));
  return new AppError(
    'RATE_LIMITED',
    `Too many failed API key attempts from this address. Try again in ${seconds} s; a valid key is accepted meanwhile.`,
  );
}

/**
 * Routes that manage credentials and settings take a console session only: an API key cannot
 * mint or revoke keys. A key sent to them is refused with FORBIDDEN, saying why.
 */
export function consoleSessionOnly(authenticate: onRequestAsyncHookHandler): onRequestAsyncHookHandler {
  return async function (this: FastifyInstance, request, reply) {
    const credential = credentialOf(request);
    if (credential && looksLikeApiKey(credential)) {
      throw new AppError('FORBIDDEN', 'API keys cannot be used here: sign in to the console.');
    }
    await authenticate.call(this, request, reply);
  };
}

/** The credential of the request's headers: `Authorization: Bearer …`, else `x-api-key`. */
export function credentialOf(request: FastifyRequest): string | undefined {
  const bearer = request.headers.authorization?.match(/^Bearer\s+(\S+)$/i)?.[1];
  if (bearer) return bearer;
  const header = request.headers['x-api-key'];
  const apiKey = (Array.isArray(header) ? header[0] : header)?.trim();
  return apiKey || undefined;
}

function queryAccessToken(request: FastifyRequest): string | undefined {
  const query = request.query as Record<string, unknown> | undefined;
  const token = query?.accessToken;
  return typeof token === 'string' && token.length > 0 ? token : undefined;
}

/** The API key of a request that passed the public API hook with a key; undefined for an access token. */
export function usedApiKey(request: FastifyRequest): ApiKeyRecord | undefined {
  return request.apiKey;
}

/** The OpenAPI security of public API routes: a console access token or an API key. */
export const publicApiSecurity: Record<string, string[]>[] = [
  { consoleSession: [] },
  { apiKeyBearer: [] },
  { apiKeyHeader: [] },
];
