import type { RegisterResponse, registerRequestSchema } from '@verbatim/contracts';
import type { z } from 'zod';
import type { Config } from '../../config/config.js';
import { AppError } from '../../errors/app-error.js';
import { newId } from '../../lib/ids.js';
import type { PasswordHasher } from '../../platform/crypto/password-hasher.js';
import type { Db } from '../../platform/db/database.js';
import { issueAccountToken, redeemAccountToken } from '../accounts/account-tokens.js';
import { EmailTakenError, type Account } from '../accounts/accounts.repository.js';
import { accountsStore, inAccountsTransaction, type AccountsStore } from '../accounts/accounts-store.js';
import type { AuditContext } from '../accounts/audit-log.js';
import { assertCaptcha, type CaptchaVerifier } from '../captcha/captcha-verifier.js';
import type { AccountMailer } from '../mail/account-mailer.js';

export type RegistrationInput = z.output<typeof registerRequestSchema>;

export interface RegistrationDependencies {
  db: Db;
  captcha: CaptchaVerifier;
  hasher: PasswordHasher;
  mailer: AccountMailer;
  config: Config['accounts'];
}

function emailInUse(cause?: unknown): AppError {
  return new AppError('EMAIL_IN_USE', 'This e-mail address is already in use', undefined, { cause });
}

/**
 * Records that the account's owner controls its mailbox. A pending account moves on to active, or
 * to pending approval when an operator must approve new accounts; other statuses stay as they are.
 */
export async function markEmailVerified(
  store: AccountsStore,
  account: Account,
  options: {
    requiresApproval: boolean;
    via: 'verification_link' | 'password_recovery' | 'google' | 'github';
  },
  context: AuditContext,
): Promise<Account> {
  if (account.email_verified_at !== null && account.status !== 'pending_verification') return account;
  const status =
    account.status === 'pending_verification'
      ? options.requiresApproval
        ? 'pending_approval'
        : 'active'
      : account.status;
  const updated = await store.accounts.update(account.id, {
    email_verified_at: account.email_verified_at ?? new Date(),
    status,
  });
  if (!updated) throw new AppError('BAD_TOKEN', 'This link is not valid or has already been used.');
  await store.tokens.deleteUnused(account.id, 'email_verification');
  await store.audit.record('account.email_verified', account.id, context, { via: options.via, status });
  return updated;
}

/** Sign-up with e-mail and password, and the e-mail verification that follows it. */
export class RegistrationService {
  constructor(private readonly deps: RegistrationDependencies) {}

  /** Creates a pending account and e-mails its verification link. The captcha is checked first. */
  async register(input: RegistrationInput, context: AuditContext): Promise<RegisterResponse['user']> {
    const { db, captcha, hasher, mailer } = this.deps;
    await assertCaptcha(captcha, input.reCaptchaKey, context);
    // Spares the costly hash for a taken address; the unique index still decides races.
    if (await accountsStore(db).accounts.findByEmail(input.email)) throw emailInUse();
    const passwordHash = await hasher.hash(input.password);
    const { account, code } = await inAccountsTransaction(db, async ({ accounts, tokens, audit }) => {
      const account = await accounts
        .insert({
          id: newId('acc'),
          email: input.email,
          passwordHash,
          status: 'pending_verification',
          registeredAs: input.registeredAs,
          startingCreditCents: this.deps.config.startingCreditCents,
        })
        .catch((error: unknown) => {
          throw error instanceof EmailTakenError ? emailInUse(error) : error;
        });
      const code = await issueAccountToken(tokens, account.id, 'email_verification', this.#verificationTtlMs);
      await audit.record('account.registered', account.id, context, { registeredAs: input.registeredAs });
      return { account, code };
    });
    await mailer.sendVerification(account.email, code);
    return { id: account.id, email: account.email, status: account.status };
  }

  /**
   * Sends a new verification link (the earlier ones stop working) when the address belongs to an
   * account waiting for verification; otherwise does nothing, and the caller answers the same.
   */
  async resendVerification(email: string): Promise<void> {
    const { db, mailer } = this.deps;
    const account = await accountsStore(db).accounts.findByEmail(email);
    if (account?.status !== 'pending_verification') return;
    const code = await inAccountsTransaction(db, ({ tokens }) =>
      issueAccountToken(tokens, account.id, 'email_verification', this.#verificationTtlMs),
    );
    await mailer.sendVerification(account.email, code);
  }

  /**
   * Uses up the code from a verification link and marks the e-mail verified: the account becomes
   * active, or pending approval when approval is required. Throws AppError BAD_TOKEN (unknown or
   * already used) or TOKEN_EXPIRED. Of concurrent calls with one code, exactly one succeeds.
   */
  verifyEmail(code: string, context: AuditContext): Promise<Account> {
    return inAccountsTransaction(this.deps.db, async (store) => {
      const token = await redeemAccountToken(store.tokens, 'email_verification', code);
      const account = await store.accounts.findById(token.account_id);
      if (!account) throw new AppError('BAD_TOKEN', 'This link is not valid or has already been used.');
      return markEmailVerified(
        store,
        account,
        { requiresApproval: this.deps.config.registrationRequiresApproval, via: 'verification_link' },
        context,
      );
    });
  }

  get #verificationTtlMs(): number {
    return this.deps.config.emailVerificationTtlHours * 3_600_000;
  }
}
