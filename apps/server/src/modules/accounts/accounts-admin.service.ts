import type { AccountStatus } from '@verbatim/contracts';
import { AppError } from '../../errors/app-error.js';
import type { Db } from '../../platform/db/database.js';
import type { Account } from './accounts.repository.js';
import { accountsStore, inAccountsTransaction, type AccountsStore } from './accounts-store.js';

/** What an operator does to accounts from the command line. */
export class AccountsAdminService {
  constructor(private readonly db: Db) {}

  list(status?: AccountStatus): Promise<Account[]> {
    return accountsStore(this.db).accounts.list(status);
  }

  /**
   * Lets the account sign in: a verified account waiting for approval, or a deactivated one,
   * becomes active (a deactivated one that never verified its e-mail goes back to verification).
   */
  approve(email: string): Promise<Account> {
    return inAccountsTransaction(this.db, async (store) => {
      const account = await findOrFail(store, email);
      if (account.status === 'active')
        throw new AppError('BAD_REQUEST', `${account.email} is already active`);
      if (account.status === 'pending_verification') {
        throw new AppError('BAD_REQUEST', `${account.email} has not verified its e-mail address yet`);
      }
      const status = account.email_verified_at === null ? 'pending_verification' : 'active';
      return changeStatus(store, account, status, 'account.approved');
    });
  }

  /** Stops the account from signing in. */
  deactivate(email: string): Promise<Account> {
    return inAccountsTransaction(this.db, async (store) => {
      const account = await findOrFail(store, email);
      if (account.status === 'inactive')
        throw new AppError('BAD_REQUEST', `${account.email} is already inactive`);
      return changeStatus(store, account, 'inactive', 'account.deactivated');
    });
  }
}

async function findOrFail(store: AccountsStore, email: string): Promise<Account> {
  const account = await store.accounts.findByEmail(email.trim());
  if (!account) throw new AppError('NOT_FOUND', `no account has the e-mail address ${email}`);
  return account;
}

async function changeStatus(
  store: AccountsStore,
  account: Account,
  status: AccountStatus,
  kind: 'account.approved' | 'account.deactivated',
): Promise<Account> {
  const updated = await store.accounts.update(account.id, { status });
  if (status === 'inactive') await store.sessions.revokeAll(account.id);
  if (!updated) throw new AppError('NOT_FOUND', `no account has the e-mail address ${account.email}`);
  await store.audit.record(
    kind,
    account.id,
    { userAgent: 'verbatim CLI' },
    { from: account.status, to: status },
  );
  return updated;
}
