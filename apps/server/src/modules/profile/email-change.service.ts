import { AppError } from '../../errors/app-error.js';
import type { Db } from '../../platform/db/database.js';
import { issueAccountToken, redeemAccountToken } from '../accounts/account-tokens.js';
import { EmailTakenError, type Account } from '../accounts/accounts.repository.js';
import { accountsStore, inAccountsTransaction } from '../accounts/accounts-store.js';
import type { AuditContext } from '../accounts/audit-log.js';
import type { AccountMailer } from '../mail/account-mailer.js';

const emailInUse = () => new AppError('EMAIL_IN_USE', 'This e-mail address is already in use');

/**
 * A new e-mail address takes effect only once a link sent to it is opened; until then the
 * account keeps its address. The previous address is told when the change is done.
 */
export class EmailChangeService {
  constructor(
    private readonly db: Db,
    private readonly mailer: AccountMailer,
    private readonly validForHours: number,
  ) {}

  /** Sends the confirmation link to the new address (replacing an earlier pending change). */
  async request(account: Account, newEmail: string, context: AuditContext): Promise<void> {
    const store = accountsStore(this.db);
    if (newEmail.toLowerCase() === account.email.toLowerCase()) {
      await store.tokens.deleteUnused(account.id, 'email_change');
      return;
    }
    const owner = await store.accounts.findByEmail(newEmail);
    if (owner && owner.id !== account.id) throw emailInUse();
    const code = await issueAccountToken(
      store.tokens,
      account.id,
      'email_change',
      this.validForHours * 3_600_000,
      newEmail,
    );
    await store.audit.record('email.change_requested', account.id, context, { newEmail });
    await this.mailer.sendEmailChange(newEmail, code);
  }

  /** The address waiting for confirmation, if any. */
  async pendingEmail(accountId: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('account_tokens')
      .select('new_email')
      .where('account_id', '=', accountId)
      .where('purpose', '=', 'email_change')
      .where('consumed_at', 'is', null)
      .where('expires_at', '>', new Date())
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
    return row?.new_email ?? null;
  }

  /** Redeems the code of the link: the account's address becomes the confirmed one. */
  async confirm(code: string, context: AuditContext): Promise<Account> {
    const { account, previousEmail } = await inAccountsTransaction(this.db, async (store) => {
      const token = await redeemAccountToken(store.tokens, 'email_change', code);
      const current = await store.accounts.findById(token.account_id);
      if (!current || !token.new_email)
        throw new AppError('BAD_TOKEN', 'This link is not valid or has already been used.');
      let updated: Account | undefined;
      try {
        updated = await store.accounts.update(current.id, {
          email: token.new_email,
          email_verified_at: new Date(),
        });
      } catch (error) {
        if (error instanceof EmailTakenError) throw emailInUse();
        throw error;
      }
      if (!updated) throw new AppError('BAD_TOKEN', 'This link is not valid or has already been used.');
      await store.audit.record('email.changed', current.id, context, {
        from: current.email,
        to: updated.email,
      });
      return { account: updated, previousEmail: current.email };
    });
    // After the commit: the mail queue uses its own connection.
    await this.mailer.sendEmailChangedNotice(previousEmail, account.email);
    return account;
  }
}
