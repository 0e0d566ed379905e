import { AppError } from '../../errors/app-error.js';
import { timingDecoyHash, type PasswordHasher } from '../../platform/crypto/password-hasher.js';
import type { Account, AccountsRepository } from '../accounts/accounts.repository.js';
import type { AuditContext, AuditLog } from '../accounts/audit-log.js';
import type { SigninThrottle } from './signin-throttle.js';

/** Checks a solved captcha; the registration module provides it. */
export type CaptchaCheck = (solution: string | undefined, context: AuditContext) => Promise<boolean>;

export interface PasswordSignIn {
  email: string;
  password: string;
  captcha?: string;
  context: AuditContext;
}

/** Client addresses are shared (offices, NAT): they get a larger allowance than one e-mail address. */
const addressAllowanceFactor = 4;

/** Password sign-in: credentials, account state, throttling and the audit trail. */
export class SignInService {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly hasher: PasswordHasher,
    private readonly throttle: SigninThrottle,
    private readonly audit: AuditLog,
    private readonly checkCaptcha: CaptchaCheck,
    private readonly failuresBeforeCaptcha: number,
  ) {}

  async signInWithPassword({ email, password, captcha, context }: PasswordSignIn): Promise<Account> {
    const normalisedEmail = email.trim().toLowerCase();
    const emailKey = `email:${normalisedEmail}`;
    const addressKey = context.ip ? `ip:${context.ip}` : undefined;
    const keys = [
      { key: emailKey, limit: this.failuresBeforeCaptcha },
      ...(addressKey
        ? [{ key: addressKey, limit: this.failuresBeforeCaptcha * addressAllowanceFactor }]
        : []),
    ];

    if (await this.throttle.captchaRequired(keys)) {
      if (!(await this.checkCaptcha(captcha, context))) {
        await this.audit.record('signin.throttled', null, context, { email: normalisedEmail });
        throw new AppError('CAPTCHA_REQUIRED', 'Too many failed attempts. Solve the captcha and try again.');
      }
    }

    const account = await this.accounts.findByEmail(normalisedEmail);
    // Verify against a decoy when there is no account, so timing does not reveal which addresses exist.
    const passwordMatches = await this.hasher.verify(account?.password_hash ?? timingDecoyHash, password);
    if (!account || !account.password_hash || !passwordMatches) {
      await this.throttle.recordFailure(keys.map((entry) => entry.key));
      await this.audit.record('signin.failed', account?.id ?? null, context, { email: normalisedEmail });
      throw new AppError('INVALID_CREDENTIALS', 'Wrong username or password.');
    }

    await this.throttle.reset(emailKey);
    assertMaySignIn(account);
    await this.audit.record('signin.succeeded', account.id, context, { method: 'password' });
    return account;
  }
}

/** Only active accounts sign in; the others learn why (the password was right). */
export function assertMaySignIn(account: Account): void {
  switch (account.status) {
    case 'active':
      return;
    case 'pending_verification':
      throw new AppError('EMAIL_NOT_VERIFIED', 'Please verify your e-mail address first.');
    case 'pending_approval':
      throw new AppError('ACCOUNT_PENDING_APPROVAL', 'Your account is waiting for approval.');
    case 'inactive':
      throw new AppError('ACCOUNT_INACTIVE', 'This account is inactive.');
  }
}
