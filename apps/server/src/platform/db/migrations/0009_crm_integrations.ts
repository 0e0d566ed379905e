import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // One connection of an account to one CRM account (HubSpot portal, Pipedrive company). Tokens are
  // sealed (AES-256-GCM, bound to the row id) before they are stored; connecting the same CRM
  // account again replaces them, which is how a connection is reconnected.
  await sql`
    create table crm_integrations (
      id text primary key,
      account_id text not null references accounts (id) on delete cascade,
      provider text not null check (provider in ('hubspot', 'pipedrive')),
      method text not null check (method in ('oauth', 'token')),
      external_account text not null,
      account_name text not null,
      web_domain text,
      api_url text,
      status text not null default 'connected' check (status in ('connected', 'needs_reconnect')),
      last_error_code text,
      access_token_sealed text not null,
      refresh_token_sealed text,
      access_expires_at timestamptz,
      token_version integer not null default 1,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (account_id, provider, external_account)
    )
  `.execute(db);

  // OAuth authorizations in flight: the state is stored as its SHA-256, used once, and bound to the
  // account that asked and to the exact redirect URI sent to the provider.
  await sql`
    create table crm_oauth_states (
      state_hash text primary key,
      account_id text not null references accounts (id) on delete cascade,
      provider text not null,
      redirect_uri text not null,
      expires_at timestamptz not null,
      used_at timestamptz,
      created_at timestamptz not null default now()
    )
  `.execute(db);

  // Transcripts sent to a contact's record. (integration, transcript, contact, kind) is the natural
  // idempotency key: sending the same thing twice finds the first delivery. An Idempotency-Key is
  // unique per account. The transcript id is not a foreign key: it names a submitted file or a
  // transcription job, and the delivery outlives either.
  await sql`
    create table crm_deliveries (
      id text primary key,
      account_id text not null references accounts (id) on delete cascade,
      integration_id text references crm_integrations (id) on delete set null,
      provider text not null,
      transcript_id text not null,
      contact_id text not null,
      kind text not null check (kind in ('note', 'task')),
      task_subject text,
      task_due_at timestamptz,
      idempotency_key text,
      status text not null default 'queued'
        check (status in ('queued', 'sending', 'delivered', 'failed', 'waiting_reconnect')),
      attempts integer not null default 0,
      last_error_code text,
      last_error text,
      record_id text,
      record_url text,
      delivered_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (integration_id, transcript_id, contact_id, kind),
      unique (account_id, idempotency_key)
    )
  `.execute(db);
  await sql`create index crm_deliveries_transcript on crm_deliveries (account_id, transcript_id)`.execute(db);
  await sql`
    create index crm_deliveries_waiting on crm_deliveries (integration_id) where status = 'waiting_reconnect'
  `.execute(db);
}
