import type { ColumnType, Generated } from 'kysely';

export interface ApiKeysTable {
  id: string;
  account_id: string;
  name: string | null;
  /** The first characters of the secret, shown to recognise the key. */
  prefix: string;
  /** SHA-256 (hex) of the whole secret; the secret itself is never stored. */
  secret_hash: string;
  monthly_cap_cents: number | null;
  expires_at: Date | null;
  last_used_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  revoked_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  created_at: Generated<Date>;
}
