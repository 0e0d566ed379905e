import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { AppError } from '../errors/app-error.js';
import type { Account, AccountsRepository } from '../modules/accounts/accounts.repository.js';
import type { AccessTokenVerifier } from '../modules/identity/access-token-verifier.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in account; set by the `authenticate` hook on protected routes. */
    account?: Account;
    /** The grant (sign-in) of the access token used. */
    grantId?: string;
  }
}

/** The onRequest hook of every protected route (it runs before the body is parsed or validated): a valid access token for the API, of an active account. */
export function authenticate(
  verifier: AccessTokenVerifier,
  accounts: AccountsRepository,
): onRequestAsyncHookHandler {
  return async (request) => {
    const header = request.headers.authorization;
    const token = header?.match(/^Bearer\s+(\S+)$/i)?.[1];
    if (!token)
      throw new AppError(
        'UNAUTHENTICATED',
        'Sign in first: send an access token as "Authorization: Bearer <token>".',
      );
    const { account, grantId } = await accountOfAccessToken(verifier, accounts, token);
    request.account = account;
    if (grantId) request.grantId = grantId;
  };
}

/** The active account an access token for the API was issued to; UNAUTHENTICATED otherwise. */
export async function accountOfAccessToken(
  verifier: AccessTokenVerifier,
  accounts: AccountsRepository,
  token: string,
): Promise<{ account: Account; grantId: string | undefined }> {
  let accountId: string;
  let grantId: string | undefined;
  try {
    const verified = await verifier.verify(token);
    if (!verified.scopes.has('api')) throw new Error('token without the api scope');
    accountId = verified.accountId;
    grantId = verified.grantId;
  } catch {
    throw new AppError('UNAUTHENTICATED', 'The access token is invalid or has expired. Sign in again.');
  }
  const account = await accounts.findById(accountId);
  if (!account || account.status !== 'active') {
    throw new AppError('UNAUTHENTICATED', 'This account can no longer sign in.');
  }
  return { account, grantId };
}

/** The account of a request that passed `authenticate`. */
export function signedInAccount(request: FastifyRequest): Account {
  if (!request.account) throw new Error('route is missing the authenticate hook');
  return request.account;
}
