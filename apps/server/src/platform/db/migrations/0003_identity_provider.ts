import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Everything the OpenID Connect provider persists (sessions, grants, codes, tokens, interactions,
  // device codes), one row per model instance, looked up by id, uid, user code or grant.
  await sql`
    create table oidc_models (
      kind text not null,
      id text not null,
      payload jsonb not null,
      grant_id text,
      user_code text,
      uid text,
      expires_at timestamptz,
      consumed_at timestamptz,
      primary key (kind, id)
    )
  `.execute(db);
  await sql`create index oidc_models_grant on oidc_models (grant_id) where grant_id is not null`.execute(db);
  await sql`create unique index oidc_models_user_code on oidc_models (kind, user_code) where user_code is not null`.execute(
    db,
  );
  await sql`create unique index oidc_models_uid on oidc_models (kind, uid) where uid is not null`.execute(db);
  await sql`create index oidc_models_expires on oidc_models (expires_at) where expires_at is not null`.execute(
    db,
  );
  // Signing an account out everywhere finds its sessions, grants and tokens by account.
  await sql`create index oidc_models_account on oidc_models ((payload ->> 'accountId'))`.execute(db);

  // Failed sign-ins per e-mail address and per client address: past a threshold the captcha is required.
  await sql`
    create table signin_failures (
      key text primary key,
      failures integer not null,
      window_started_at timestamptz not null
    )
  `.execute(db);
}
