import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table accounts (
      id text primary key,
      email text not null,
      password_hash text,
      full_name text,
      status text not null check (status in ('pending_verification', 'pending_approval', 'active', 'inactive')),
      email_verified_at timestamptz,
      show_welcome_msg boolean not null default true,
      registered_as text not null default 'api',
      language text not null default 'en',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )
  `.execute(db);
  await sql`create unique index accounts_email_unique on accounts (lower(email))`.execute(db);

  // Single-use secrets sent by e-mail; only their hash is stored.
  await sql`
    create table account_tokens (
      id text primary key,
      account_id text not null references accounts (id) on delete cascade,
      purpose text not null check (purpose in ('email_verification', 'password_recovery', 'email_change')),
      token_hash text not null unique,
      new_email text,
      expires_at timestamptz not null,
      consumed_at timestamptz,
      created_at timestamptz not null default now()
    )
  `.execute(db);
  await sql`create index account_tokens_account on account_tokens (account_id, purpose)`.execute(db);

  await sql`
    create table external_identities (
      provider text not null,
      subject text not null,
      account_id text not null references accounts (id) on delete cascade,
      created_at timestamptz not null default now(),
      primary key (provider, subject)
    )
  `.execute(db);

  await sql`
    create table audit_events (
      id text primary key,
      account_id text references accounts (id) on delete set null,
      kind text not null,
      ip text,
      user_agent text,
      detail jsonb not null default '{}'::jsonb,
      created_at timestamptz not null default now()
    )
  `.execute(db);
  await sql`create index audit_events_account on audit_events (account_id, created_at)`.execute(db);

  // Captcha solutions already accepted, so a solved challenge cannot be replayed.
  await sql`
    create table captcha_solutions (
      signature text primary key,
      expires_at timestamptz not null
    )
  `.execute(db);

  // Secrets the server generates once and every process shares (signing keys, HMAC keys).
  await sql`
    create table server_secrets (
      name text primary key,
      value text not null,
      created_at timestamptz not null default now()
    )
  `.execute(db);
}
