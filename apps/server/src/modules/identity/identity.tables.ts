import type { ColumnType, JSONColumnType } from 'kysely';

export interface OidcModelsTable {
  kind: string;
  id: string;
  payload: JSONColumnType<Record<string, unknown>, string, string>;
  grant_id: string | null;
  user_code: string | null;
  uid: string | null;
  expires_at: Date | null;
  consumed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface SigninFailuresTable {
  key: string;
  failures: number;
  window_started_at: Date;
}
