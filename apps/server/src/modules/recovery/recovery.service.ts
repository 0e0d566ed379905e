import type { RecoveryPasswordResponse } from '@verbatim/contracts';
import type { Config } from '../../config/config.js';
import { AppError } from '../../errors/app-error.js';
import type { PasswordHasher } from '../../platform/crypto/password-hasher.js';
import type { Db } from '../../platform/db/database.js';
import type { JobQueue } from '../../platform/queue/job-queue.js';
import {
  assertAccountTokenUsable,
  issueAccountToken,
  redeemAccountToken,
} from '../accounts/account-tokens.js';
import { accountsStore, inAccountsTransaction } from '../accounts/accounts-store.js';
import type { AuditContext } from '../accounts/audit-log.js';
import { assertCaptcha, type CaptchaVerifier } from '../captcha/captcha-verifier.js';
import type { AccountMailer } from '../mail/account-mailer.js';
import { markEmailVerified } from '../registration/registration.service.js';
import { sendRecoveryLinkJob } from './recovery.jobs.js';

export interface RecoveryDependencies {
  db: Db;
  queue: JobQueue;
  captcha: CaptchaVerifier;
  hasher: PasswordHasher;
  mailer: AccountMailer;
  config: Config['accounts'];
}

/** "Forgot password": a single-use link by e-mail, then a new password. */
export class RecoveryService {
  constructor(private readonly deps: RecoveryDependencies) {}

  /**
   * Checks the captcha, then queues the lookup and the e-mail: the answer and its timing are the
   * same whether or not an account has this address.
   */
  async requestRecovery(
    input: { email: string; reCaptchaKey: string },
    context: AuditContext,
  ): Promise<void> {
    await assertCaptcha(this.deps.captcha, input.reCaptchaKey, context);
    await this.deps.queue.send(sendRecoveryLinkJob, {
      email: input.email,
      ip: context.ip ?? null,
      userAgent: context.userAgent ?? null,
    });
  }

  /** The job behind requestRecovery. A new link replaces the account's earlier ones. */
  async sendRecoveryLink(email: string, context: AuditContext): Promise<void> {
    const { db, mailer, config } = this.deps;
    const account = await accountsStore(db).accounts.findByEmail(email);
    if (!account) return;
    const token = await inAccountsTransaction(db, async ({ tokens, audit }) => {
      const token = await issueAccountToken(
        tokens,
        account.id,
        'password_recovery',
        config.passwordRecoveryTtlMinutes * 60_000,
      );
      await audit.record('password.recovery_requested', account.id, context);
      return token;
    });
    await mailer.sendRecovery(account.email, token);
  }

  /**
   * Sets a new password with the token from a recovery link (single use; BAD_TOKEN or
   * TOKEN_EXPIRED otherwise). The link proves control of the mailbox, so an account still waiting
   * for e-mail verification is verified too.
   */
  async recoverPassword(
    input: { token: string; password: string },
    context: AuditContext,
  ): Promise<RecoveryPasswordResponse> {
    const { db, hasher, config } = this.deps;
    // Refuse a bad link before spending a password hash on it; the redeem below still decides.
    await assertAccountTokenUsable(accountsStore(db).tokens, 'password_recovery', input.token);
    const passwordHash = await hasher.hash(input.password);
    return inAccountsTransaction(db, async (store) => {
      const token = await redeemAccountToken(store.tokens, 'password_recovery', input.token);
      let account = await store.accounts.update(token.account_id, { password_hash: passwordHash });
      if (!account) throw new AppError('BAD_TOKEN', 'This link is not valid or has already been used.');
      await store.audit.record('password.recovered', account.id, context);
      // Whoever knew the old password is signed out everywhere.
      await store.sessions.revokeAll(account.id);
      if (account.status === 'pending_verification' || account.email_verified_at === null) {
        account = await markEmailVerified(
          store,
          account,
          { requiresApproval: config.registrationRequiresApproval, via: 'password_recovery' },
          context,
        );
      }
      return { user: { email: account.email } };
    });
  }
}
