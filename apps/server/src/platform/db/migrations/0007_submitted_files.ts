import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // A recording uploaded (resumably, or at once through the jobs API) and its transcription.
  // `received_bytes` is the authority on where the next chunk starts; `upload_lock` lets one
  // request at a time append. `claim` and `heartbeat_at` say which worker is transcribing it and
  // that it is alive, so a file whose worker died is taken up again, never twice at once.
  await sql`
    create table submitted_files (
      id text primary key,
      account_id text not null references accounts (id) on delete cascade,
      api_key_id text,
      file_name text not null,
      media_type text not null,
      size bigint not null check (size > 0),
      sha1 text not null,
      received_bytes bigint not null default 0,
      is_completed boolean not null default false,
      language_code text not null,
      callback_url text,
      status text not null default 'pending'
        check (status in ('pending', 'processing', 'done', 'processing_failed')),
      progress integer not null default 0 check (progress between 0 and 100),
      duration_seconds double precision,
      detected_language text,
      failure_reason text,
      attempts integer not null default 0,
      claim text,
      heartbeat_at timestamptz,
      upload_lock text,
      upload_lock_until timestamptz,
      created_at timestamptz not null default now(),
      completed_at timestamptz,
      processed_at timestamptz
    )
  `.execute(db);
  await sql`create index submitted_files_account on submitted_files (account_id, created_at desc, id desc)`.execute(
    db,
  );
  // "File already exists": one completed upload of the same content per account.
  await sql`
    create unique index submitted_files_completed_content on submitted_files (account_id, sha1)
    where is_completed
  `.execute(db);
  await sql`create index submitted_files_processing on submitted_files (heartbeat_at) where status = 'processing'`.execute(
    db,
  );

  // Per account: the Standard Webhooks signing secret (whsec_…).
  await sql`
    create table webhook_secrets (
      account_id text primary key references accounts (id) on delete cascade,
      secret text not null,
      created_at timestamptz not null default now()
    )
  `.execute(db);
  // One message per event (and per resend); its attempts are logged below.
  await sql`
    create table webhook_messages (
      id text primary key,
      account_id text not null references accounts (id) on delete cascade,
      file_id text not null references submitted_files (id) on delete cascade,
      url text not null,
      payload text not null,
      status text not null default 'pending' check (status in ('pending', 'delivered', 'failed')),
      attempts integer not null default 0,
      next_attempt_at timestamptz,
      created_at timestamptz not null default now()
    )
  `.execute(db);
  await sql`create index webhook_messages_file on webhook_messages (file_id, created_at desc)`.execute(db);
  await sql`
    create table webhook_attempts (
      id text primary key,
      message_id text not null references webhook_messages (id) on delete cascade,
      attempt integer not null,
      at timestamptz not null default now(),
      url text not null,
      status_code integer,
      error text,
      duration_ms integer not null,
      succeeded boolean not null,
      next_attempt_at timestamptz,
      unique (message_id, attempt)
    )
  `.execute(db);
}
