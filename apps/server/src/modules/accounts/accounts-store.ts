import type { Db } from '../../platform/db/database.js';
import { AccountSessionsRepository } from '../identity/account-sessions.repository.js';
import { AccountTokensRepository } from './account-tokens.repository.js';
import { AccountsRepository } from './accounts.repository.js';
import { ExternalIdentitiesRepository } from './external-identities.repository.js';
import { AuditLog } from './audit-log.js';

/** The repositories of the accounts tables, bound to one connection or transaction. */
export interface AccountsStore {
  accounts: AccountsRepository;
  tokens: AccountTokensRepository;
  audit: AuditLog;
  sessions: AccountSessionsRepository;
  externalIdentities: ExternalIdentitiesRepository;
}

export function accountsStore(db: Db): AccountsStore {
  return {
    accounts: new AccountsRepository(db),
    tokens: new AccountTokensRepository(db),
    audit: new AuditLog(db),
    sessions: new AccountSessionsRepository(db),
    externalIdentities: new ExternalIdentitiesRepository(db),
  };
}

/**
 * Runs the work in one transaction. Nothing inside may use another connection (the mail queue,
 * another repository): on PGlite the transaction holds the only session.
 */
export function inAccountsTransaction<T>(db: Db, work: (store: AccountsStore) => Promise<T>): Promise<T> {
  return db.transaction().execute((trx) => work(accountsStore(trx)));
}
