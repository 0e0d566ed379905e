import type { ChangePasswordRequest, Profile } from '@verbatim/contracts';
import { AppError } from '../../errors/app-error.js';
import type { PasswordHasher } from '../../platform/crypto/password-hasher.js';
import type { Account, AccountsRepository } from '../accounts/accounts.repository.js';
import type { AuditContext, AuditLog } from '../accounts/audit-log.js';
import type { AccountSessionsRepository } from '../identity/account-sessions.repository.js';
import type { EmailChangeService } from './email-change.service.js';
import { ProfilePhotos } from './profile-photos.js';

export class ProfileService {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly hasher: PasswordHasher,
    private readonly audit: AuditLog,
    private readonly photos: ProfilePhotos,
    private readonly sessions: AccountSessionsRepository,
    private readonly emailChange: EmailChangeService,
  ) {}

  async toProfile(account: Account): Promise<Profile> {
    return {
      id: account.id,
      email: account.email,
      fullName: account.full_name,
      showWelcomeMsg: account.show_welcome_msg,
      language: account.language,
      pendingEmail: await this.emailChange.pendingEmail(account.id),
      photoUrl: (await this.photos.exists(account.id)) ? ProfilePhotos.urlOf(account.id) : null,
    };
  }

  async setFullName(account: Account, fullName: string, context: AuditContext): Promise<Account> {
    if (fullName === account.full_name) return account;
    const updated = await this.#update(account.id, { full_name: fullName });
    await this.audit.record('profile.updated', account.id, context, { fields: ['fullName'] });
    return updated;
  }

  /** A new address is confirmed by e-mail before it takes effect (see EmailChangeService). */
  async requestEmailChange(account: Account, email: string, context: AuditContext): Promise<void> {
    await this.emailChange.request(account, email, context);
  }

  async setWelcomeMessage(account: Account, showWelcomeMsg: boolean): Promise<Account> {
    return this.#update(account.id, { show_welcome_msg: showWelcomeMsg });
  }

  /** Changes the password and signs the account out everywhere else. */
  async changePassword(
    account: Account,
    request: ChangePasswordRequest,
    context: AuditContext & { grantId?: string },
  ): Promise<void> {
    const matches = account.password_hash
      ? await this.hasher.verify(account.password_hash, request.oldPass)
      : false;
    if (!matches) throw new AppError('PASSWORD_INCORRECT', 'The current password is not correct.');
    await this.#update(account.id, { password_hash: await this.hasher.hash(request.newPass) });
    await this.sessions.revokeAll(account.id, context.grantId);
    await this.audit.record('password.changed', account.id, context);
  }

  async #update(id: string, changes: Parameters<AccountsRepository['update']>[1]): Promise<Account> {
    const updated = await this.accounts.update(id, changes);
    if (!updated) throw new AppError('UNAUTHENTICATED', 'This account no longer exists.');
    return updated;
  }
}
