import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The licence server's side. A licence's key is never stored: it is the payload below signed with
  // the server's Ed25519 key, and Ed25519 signatures are deterministic, so the server can derive it
  // again when it must check a report's HMAC. Seconds of audio throughout.
  await sql`
    create table licences (
      id text primary key,
      account_id text not null references accounts (id) on delete cascade,
      name text not null check (length(name) between 1 and 200),
      key_prefix text not null unique,
      key_payload text not null,
      max_uses integer not null check (max_uses > 0),
      uses integer not null default 0 check (uses >= 0),
      expires_at timestamptz not null,
      grace_days integer not null check (grace_days between 0 and 365),
      suspended_at timestamptz,
      last_report_at timestamptz,
      created_at timestamptz not null default now()
    )
  `.execute(db);
  await sql`create index licences_account on licences (account_id, created_at desc)`.execute(db);
  // Each batch an installation reports is counted once: the key makes a resent batch a no-op.
  await sql`
    create table licence_usage_batches (
      licence_id text not null references licences (id) on delete cascade,
      batch_id text not null,
      seconds integer not null check (seconds > 0),
      period_start timestamptz not null,
      period_end timestamptz not null,
      via text not null check (via in ('online', 'report')),
      received_at timestamptz not null default now(),
      primary key (licence_id, batch_id)
    )
  `.execute(db);

  // The on-premise edition's side: every finished transcription's seconds, written in the
  // transaction that completes it (one row per reference), then grouped into batches to report.
  await sql`
    create table licence_usage_journal (
      id bigint generated always as identity primary key,
      reference text not null unique,
      account_id text not null,
      product text not null,
      seconds integer not null check (seconds > 0),
      recorded_at timestamptz not null default now(),
      batch_id text,
      sent_at timestamptz
    )
  `.execute(db);
  await sql`create index licence_usage_journal_unsent on licence_usage_journal (batch_id) where sent_at is null`.execute(
    db,
  );
  // What the licence server last answered this installation, kept across restarts.
  await sql`
    create table licence_standing (
      licence_id text primary key,
      status text not null,
      uses integer not null,
      max_uses integer not null,
      expires_at timestamptz not null,
      last_report_at timestamptz,
      last_error text,
      updated_at timestamptz not null default now()
    )
  `.execute(db);
}
