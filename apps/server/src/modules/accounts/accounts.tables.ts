import type { AccountStatus } from '@verbatim/contracts';
import type { ColumnType, Generated, JSONColumnType } from 'kysely';

type CreatedAt = ColumnType<Date, never, never>;

export interface AccountsTable {
  id: string;
  /** Stored as given (lower-cased by the contracts); unique without regard to case. */
  email: string;
  /** argon2id; null for accounts that only sign in through a third-party provider. */
  password_hash: string | null;
  full_name: string | null;
  status: AccountStatus;
  email_verified_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  show_welcome_msg: Generated<boolean>;
  registered_as: Generated<string>;
  language: Generated<string>;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, never, Date>;
}

export type AccountTokenPurpose = 'email_verification' | 'password_recovery' | 'email_change';

export interface AccountTokensTable {
  id: string;
  account_id: string;
  purpose: AccountTokenPurpose;
  /** SHA-256 of the secret sent by e-mail. */
  token_hash: string;
  new_email: string | null;
  expires_at: Date;
  consumed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  created_at: CreatedAt;
}

export interface ExternalIdentitiesTable {
  provider: string;
  subject: string;
  account_id: string;
  created_at: CreatedAt;
}

export interface AuditEventsTable {
  id: string;
  account_id: string | null;
  kind: string;
  ip: string | null;
  user_agent: string | null;
  detail: JSONColumnType<Record<string, unknown>, string, string>;
  created_at: CreatedAt;
}

export interface CaptchaSolutionsTable {
  signature: string;
  expires_at: Date;
}

export interface ServerSecretsTable {
  name: string;
  value: string;
  created_at: CreatedAt;
}
