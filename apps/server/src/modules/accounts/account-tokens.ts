import { AppError } from '../../errors/app-error.js';
import { newId } from '../../lib/ids.js';
import { hashSecret, randomSecret } from '../../platform/crypto/tokens.js';
import type { AccountToken, AccountTokensRepository } from './account-tokens.repository.js';
import type { AccountTokenPurpose } from './accounts.tables.js';

/**
 * Issues a single-use secret for an e-mailed link, replacing the account's earlier unused ones
 * of the same purpose. Returns the secret; only its hash is stored.
 */
export async function issueAccountToken(
  tokens: AccountTokensRepository,
  accountId: string,
  purpose: AccountTokenPurpose,
  ttlMs: number,
  newEmail?: string,
): Promise<string> {
  const secret = randomSecret();
  await tokens.deleteUnused(accountId, purpose);
  await tokens.insert({
    id: newId('tok'),
    accountId,
    purpose,
    tokenHash: hashSecret(secret),
    expiresAt: new Date(Date.now() + ttlMs),
    ...(newEmail ? { newEmail } : {}),
  });
  return secret;
}

/**
 * Checks a secret from a link without using it up: BAD_TOKEN when unknown or already used,
 * TOKEN_EXPIRED when too old. Lets a caller refuse early, before costly work.
 */
export async function assertAccountTokenUsable(
  tokens: AccountTokensRepository,
  purpose: AccountTokenPurpose,
  secret: string,
): Promise<void> {
  const existing = await tokens.find(purpose, hashSecret(secret));
  if (!existing || existing.consumed_at !== null) {
    throw new AppError('BAD_TOKEN', 'This link is not valid or has already been used.');
  }
  if (existing.expires_at.getTime() <= Date.now()) {
    throw new AppError('TOKEN_EXPIRED', 'This link has expired. Please ask for a new one.');
  }
}

/** Uses up a secret from a link, at most once; throws as assertAccountTokenUsable does. */
export async function redeemAccountToken(
  tokens: AccountTokensRepository,
  purpose: AccountTokenPurpose,
  secret: string,
): Promise<AccountToken> {
  const consumed = await tokens.consume(purpose, hashSecret(secret), new Date());
  if (consumed) return consumed;
  await assertAccountTokenUsable(tokens, purpose, secret);
  // Usable a moment ago, gone now: another request used it first.
  throw new AppError('BAD_TOKEN', 'This link is not valid or has already been used.');
}
