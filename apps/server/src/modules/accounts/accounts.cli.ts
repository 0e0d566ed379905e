import { accountStatusSchema } from '@verbatim/contracts';
import type { Db } from '../../platform/db/database.js';
import type { Account } from './accounts.repository.js';
import { AccountsAdminService } from './accounts-admin.service.js';

export const accountsUsage = `  accounts list [--status S]  list accounts (S: ${accountStatusSchema.options.join(', ')})
  accounts approve <email>    let an account sign in (approval mode, or after deactivate)
  accounts deactivate <email> stop an account from signing in`;

/** A command line that cannot be run as written. */
export class AccountsUsageError extends Error {}

function line(account: Account): string {
  const verified = account.email_verified_at ? account.email_verified_at.toISOString() : '-';
  return [account.email, account.status, account.created_at.toISOString(), verified].join('\t');
}

/** `verbatim accounts …`: prints what it did to `print`; throws AppError for unknown accounts. */
export async function runAccountsCommand(
  db: Db,
  args: string[],
  print: (text: string) => void,
): Promise<void> {
  const admin = new AccountsAdminService(db);
  const [action, ...rest] = args;
  switch (action) {
    case 'list': {
      let status: string | undefined;
      if (rest.length > 0) {
        if (rest[0] !== '--status' || rest.length !== 2)
          throw new AccountsUsageError('usage: accounts list [--status S]');
        status = rest[1];
      }
      const parsed = accountStatusSchema.optional().safeParse(status);
      if (!parsed.success) {
        throw new AccountsUsageError(
          `unknown status "${status}": use one of ${accountStatusSchema.options.join(', ')}`,
        );
      }
      const accounts = await admin.list(parsed.data);
      print(['email', 'status', 'created', 'email verified'].join('\t'));
      for (const account of accounts) print(line(account));
      return;
    }
    case 'approve':
    case 'deactivate': {
      const email = rest[0];
      if (!email || rest.length !== 1) throw new AccountsUsageError(`usage: accounts ${action} <email>`);
      const account = action === 'approve' ? await admin.approve(email) : await admin.deactivate(email);
      print(`${account.email} is now ${account.status}`);
      return;
    }
    default:
      throw new AccountsUsageError(
        action ? `unknown accounts command "${action}"` : 'accounts needs a command',
      );
  }
}
