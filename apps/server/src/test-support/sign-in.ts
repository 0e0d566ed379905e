import type { AccountStatus, TokenResponse } from '@verbatim/contracts';
import { newId } from '../lib/ids.js';
import { AccountsRepository, type Account } from '../modules/accounts/accounts.repository.js';
import { Argon2PasswordHasher } from '../platform/crypto/password-hasher.js';
import type { TestRuntime } from './test-runtime.js';

export const defaultPassword = 'Correct-Horse-9';

/**
 * Accounts stored directly by tests are hashed at OWASP's minimum argon2id cost (19 MiB, 2 passes,
 * 1 lane) instead of the product's 64 MiB, 3 passes, 4 lanes: a sign-in verifies at the cost its
 * hash was made with, so each test's sign-ins take a fraction of the CPU. The product's own hashing
 * (sign-up, recovery, password change) keeps its cost and is tested there.
 */
const storedAccountHasher = new Argon2PasswordHasher({ memoryCost: 19_456, timeCost: 2, parallelism: 1 });

/** An account stored directly, in the given state, with a known password. */
export async function createAccount(
  runtime: TestRuntime,
  options: { email?: string; password?: string; status?: AccountStatus; fullName?: string } = {},
): Promise<Account> {
  return new AccountsRepository(runtime.database.db).insert({
    id: newId('acc'),
    email: options.email ?? `u${newId('').slice(-12)}@example.com`,
    passwordHash: await storedAccountHasher.hash(options.password ?? defaultPassword),
    fullName: options.fullName ?? null,
    status: options.status ?? 'active',
    emailVerifiedAt: options.status === 'pending_verification' ? null : new Date(),
    startingCreditCents: runtime.config.accounts.startingCreditCents,
  });
}

/** A token request to the spec's sign-in address, form-encoded as OAuth requires. */
export function tokenRequest(runtime: TestRuntime, fields: Record<string, string>) {
  return runtime.app.inject({
    method: 'POST',
    url: '/api/v1/auth/profile/verify',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ client_id: 'verbatim-console', ...fields }).toString(),
  });
}

/** Signs in with the password grant and returns the token response. */
export async function signIn(
  runtime: TestRuntime,
  email: string,
  password = defaultPassword,
): Promise<TokenResponse> {
  const response = await tokenRequest(runtime, { grant_type: 'password', username: email, password });
  if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
  return response.json<TokenResponse>();
}

/** Headers of an API request made by the signed-in account. */
export function bearer(tokens: TokenResponse): { authorization: string } {
  return { authorization: `Bearer ${tokens.access_token}` };
}
