import { webhookSigningSecretSchema } from '@verbatim/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretStore } from '../../platform/crypto/secret-store.js';
import { TokenSealer } from '../../platform/crypto/token-sealer.js';
import { newId } from '../../lib/ids.js';
import { sha1, standardWebhookValid, startWebhookReceiver } from '../../test-support/files.js';
import { newWebhookSecret } from './webhook-signature.js';
import { bearer, createAccount, signIn } from '../../test-support/sign-in.js';
import { startTestRuntime, type TestRuntime } from '../../test-support/test-runtime.js';
import { WebhooksService } from './webhooks.service.js';

/** Every row of every table of the database, as text: what a dump of it would hold. */
async function databaseDump(runtime: TestRuntime): Promise<string> {
  const db = runtime.database.db;
  const tables = await sql<{ table_name: string }>`
    select table_name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db);
  expect(tables.rows.map((row) => row.table_name)).toContain('webhook_secrets');
  const parts: string[] = [];
  for (const { table_name: table } of tables.rows) {
    const rows = await sql<{ dump: string | null }>`
      select string_agg(t::text, E'\n') as dump from ${sql.table(table)} t`.execute(db);
    parts.push(`-- ${table}\n${rows.rows[0]?.dump ?? ''}`);
  }
  return parts.join('\n');
}

/** The key of a `whsec_` secret (base64), the part that signs. */
function keyOf(secret: string): string {
  return secret.slice('whsec_'.length);
}

describe('webhook signing secrets are sealed at rest', () => {
  let runtime: TestRuntime;
  let headers: Record<string, string>;
  let accountId: string;

  beforeAll(async () => {
    runtime = await startTestRuntime();
    const account = await createAccount(runtime);
    accountId = account.id;
    headers = bearer(await signIn(runtime, account.email));
  }, 60_000);

  afterAll(async () => {
    await runtime.close();
  });

  async function shownSecret(): Promise<string> {
    const response = await runtime.app.inject({ url: '/api/v1/webhooks/signing-secret', headers });
    expect(response.statusCode).toBe(200);
    return webhookSigningSecretSchema.parse(response.json()).secret;
  }

  it('never writes the secret shown in the console to the database, before or after rotation', async () => {
    const secret = await shownSecret();
    expect(await shownSecret()).toBe(secret);
    const stored = await runtime.database.db
      .selectFrom('webhook_secrets')
      .select('secret')
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    expect(stored.secret).not.toContain(keyOf(secret));
    expect(stored.secret).toMatch(/^v1\./);
    const dump = await databaseDump(runtime);
    expect(dump).toContain(stored.secret);
    expect(dump).not.toContain(keyOf(secret));

    const rotated = await runtime.app.inject({
      method: 'POST',
      url: '/api/v1/webhooks/signing-secret/rotate',
      headers,
    });
    const next = webhookSigningSecretSchema.parse(rotated.json()).secret;
    expect(next).not.toBe(secret);
    expect(await shownSecret()).toBe(next);
    const afterRotation = await databaseDump(runtime);
    expect(afterRotation).not.toContain(keyOf(next));
    expect(afterRotation).not.toContain(keyOf(secret));
  });

  it('signs webhooks with the sealed secret: the one shown verifies them (Standard Webhooks)', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const data = Buffer.from('a recording to be signed about');
      const created = await runtime.app.inject({
        method: 'POST',
        url: '/api/v1/media/recordings',
        headers,
        payload: {
          fileName: 's.wav',
          size: data.length,
          type: 'audio/wav',
          languageCode: 'en',
          sha1: sha1(data),
        },
      });
      const { fileId } = created.json<{ fileId: string }>();
      const messageId = newId('msg');
      const payload = JSON.stringify({ fileId, status: 'done' });
      await runtime.database.db
        .insertInto('webhook_messages')
        .values({
          id: messageId,
          account_id: accountId,
          file_id: fileId,
          url: receiver.url,
          payload,
          next_attempt_at: new Date(),
        })
        .execute();
      const webhooks = new WebhooksService({
        db: runtime.database.db,
        queue: runtime.queue,
        publicUrl: 'http://localhost',
        sealer: await TokenSealer.open(null, new SecretStore(runtime.database.db)),
        allowPrivateAddresses: true,
        timeoutMs: 5000,
        firstRetryDelaySeconds: 3600,
        logger: runtime.logger,
      });
      await webhooks.deliver(messageId);
      const hook = receiver.received.at(-1);
      if (!hook) throw new Error('no webhook received');
      expect(hook.body).toBe(payload);
      expect(standardWebhookValid(await shownSecret(), hook.headers, hook.body)).toBe(true);
      expect(standardWebhookValid(newWebhookSecret(), hook.headers, hook.body)).toBe(false);
    } finally {
      await receiver.close();
    }
  });

  it('seals the secrets stored in plain text before, keeping their value; a sealed secret opens only on its own row', async () => {
    const other = await createAccount(runtime);
    const legacy = newWebhookSecret();
    await runtime.database.db
      .insertInto('webhook_secrets')
      .values({ account_id: other.id, secret: legacy })
      .execute();
    expect(await databaseDump(runtime)).toContain(keyOf(legacy));

    // What the server does at start-up, with its own key.
    const webhooks = new WebhooksService({
      db: runtime.database.db,
      queue: runtime.queue,
      publicUrl: 'http://localhost',
      sealer: await TokenSealer.open(null, new SecretStore(runtime.database.db)),
      allowPrivateAddresses: false,
      timeoutMs: 1000,
      firstRetryDelaySeconds: 3600,
      logger: runtime.logger,
    });
    expect(await webhooks.sealPlainSecrets()).toBe(1);
    expect(await webhooks.sealPlainSecrets()).toBe(0);
    expect(await databaseDump(runtime)).not.toContain(keyOf(legacy));
    // Webhooks signed before still verify: the value is the same.
    expect(await webhooks.secretOf(other.id)).toBe(legacy);

    // Another account's sealed secret copied onto this row does not open there.
    const mine = await runtime.database.db
      .selectFrom('webhook_secrets')
      .select('secret')
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    await runtime.database.db
      .updateTable('webhook_secrets')
      .set({ secret: mine.secret })
      .where('account_id', '=', other.id)
      .execute();
    await expect(webhooks.secretOf(other.id)).rejects.toThrow();
  });
});
