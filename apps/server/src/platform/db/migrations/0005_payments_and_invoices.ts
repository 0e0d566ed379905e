import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // A purchase of credit by card: what the customer confirmed (amounts in cents, VAT rate in
  // hundredths of a percent), who they are for the invoice, and what the provider told us since.
  await sql`
    create table payments (
      id text primary key,
      account_id text not null references accounts (id) on delete cascade,
      provider text not null check (provider in ('sandbox', 'stripe')),
      session_id text unique,
      status text not null default 'pending' check (status in ('pending', 'succeeded', 'failed', 'deleted')),
      credits_cents integer not null check (credits_cents > 0),
      vat_rate_hundredths integer not null check (vat_rate_hundredths between 0 and 10000),
      vat_cents integer not null check (vat_cents >= 0),
      total_cents integer not null,
      vat_treatment text not null,
      vat_validation text not null,
      customer_type text not null check (customer_type in ('private', 'company')),
      customer_email text not null,
      customer_name text not null,
      company_name text,
      company_address text,
      vat_number text,
      country text not null,
      payment_method text not null,
      locale text not null,
      transaction_number text,
      card_brand text,
      card_last4 text,
      failure_reason text,
      checkout_completed_at timestamptz,
      paid_at timestamptz,
      expires_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      check (total_cents = credits_cents + vat_cents),
      check ((status = 'succeeded') = (paid_at is not null))
    )
  `.execute(db);
  await sql`create index payments_account on payments (account_id, created_at desc, id)`.execute(db);

  // Every verified webhook event once: a delivery repeated by the provider is recognised and skipped.
  await sql`
    create table payment_events (
      provider text not null,
      event_id text not null,
      payment_id text references payments (id) on delete cascade,
      type text not null,
      received_at timestamptz not null default now(),
      primary key (provider, event_id)
    )
  `.execute(db);

  // Gap-free yearly invoice numbers: the counter row is taken in the transaction that issues the
  // invoice, so a rollback gives its number back (see invoices/invoice-number.ts).
  await sql`create table invoice_sequences (year integer primary key, last_number integer not null)`.execute(
    db,
  );
  await sql`
    create table invoices (
      id text primary key,
      payment_id text not null unique references payments (id) on delete restrict,
      account_id text not null references accounts (id) on delete cascade,
      number text not null unique,
      issued_at timestamptz not null,
      document jsonb not null,
      created_at timestamptz not null default now()
    )
  `.execute(db);
}
