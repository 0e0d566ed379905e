import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Credentials for the public API. Only the SHA-256 of a secret is kept, with its first characters
  // to recognise it; a key is never deleted, only revoked, so the usage it paid for keeps its key.
  await sql`
    create table api_keys (
      id text primary key,
      account_id text not null references accounts (id) on delete cascade,
      name text,
      prefix text not null,
      secret_hash text not null unique,
      monthly_cap_cents integer check (monthly_cap_cents is null or monthly_cap_cents > 0),
      expires_at timestamptz,
      last_used_at timestamptz,
      revoked_at timestamptz,
      created_at timestamptz not null default now()
    )
  `.execute(db);
  await sql`create index api_keys_account on api_keys (account_id, created_at)`.execute(db);

  // The metering ledger: one row per purchase, starting credit or use; the balance of an account is
  // the sum of its amounts, in millionths of a dollar (credits positive, usage zero or negative).
  // A reference is unique per account, which makes every charge and credit idempotent.
  await sql`
    create table ledger_entries (
      id text primary key,
      account_id text not null references accounts (id) on delete cascade,
      kind text not null check (kind in ('starting_credit', 'purchase', 'adjustment', 'usage')),
      amount_micros bigint not null,
      product text,
      billed_seconds bigint,
      price_micros_per_hour bigint,
      api_key_id text references api_keys (id),
      reference text not null,
      created_at timestamptz not null default now(),
      unique (account_id, reference),
      check (
        (kind = 'usage' and amount_micros <= 0 and product is not null and billed_seconds > 0)
        or (kind <> 'usage' and amount_micros > 0 and product is null and billed_seconds is null)
      )
    )
  `.execute(db);
  // A key's spending this month (its cap).
  await sql`
    create index ledger_entries_api_key on ledger_entries (api_key_id, created_at)
    where api_key_id is not null
  `.execute(db);

  // Settings of an account beyond those kept on the account itself (its interface language);
  // a missing row means every default.
  await sql`
    create table account_settings (
      account_id text primary key references accounts (id) on delete cascade,
      transcript_language text not null default 'en',
      updated_at timestamptz not null default now()
    )
  `.execute(db);
}
