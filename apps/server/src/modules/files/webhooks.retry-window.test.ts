import type { SubmittedFile, WebhookAttempts } from '@verbatim/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../lib/ids.js';
import { SecretStore } from '../../platform/crypto/secret-store.js';
import { TokenSealer } from '../../platform/crypto/token-sealer.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../test-support/files.js';
import { bearer, createAccount, signIn } from '../../test-support/sign-in.js';
import { startTestRuntime, type TestRuntime } from '../../test-support/test-runtime.js';
import { deliverWebhookJob } from './files.jobs.js';
import { WebhooksService } from './webhooks.service.js';

const firstRetryDelaySeconds = 5;
const windowMs = 24 * 3600 * 1000;
const maxDelayMs = 4 * 3600 * 1000;

/**
 * Webhook retries over a whole day, with time driven through the service's clock: every attempt
 * made, logged and scheduled on the queue; the last one within 24 hours of the message.
 */
describe('webhook retries: exponential backoff, 24 h cutoff, stop on 2xx', () => {
  let runtime: TestRuntime;
  let receiver: WebhookReceiver;
  let accountId: string;
  let headers: Record<string, string>;
  let now: Date;
  let webhooks: WebhooksService;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    runtime = await startTestRuntime();
    const account = await createAccount(runtime);
    accountId = account.id;
    headers = bearer(await signIn(runtime, account.email));
    webhooks = new WebhooksService({
      db: runtime.database.db,
      queue: runtime.queue,
      publicUrl: 'http://localhost',
      sealer: await TokenSealer.open(null, new SecretStore(runtime.database.db)),
      allowPrivateAddresses: true,
      timeoutMs: 5_000,
      firstRetryDelaySeconds,
      logger: runtime.logger,
      now: () => new Date(now),
    });
  });

  afterAll(async () => {
    await runtime.close();
    await receiver.close();
  });

  /** A transcribed file with the receiver as its webhook URL. */
  async function doneFile(): Promise<string> {
    const id = newId('fil');
    await runtime.database.db
      .insertInto('submitted_files')
      .values({
        id,
        account_id: accountId,
        api_key_id: null,
        file_name: 'meeting.flac',
        media_type: 'audio/flac',
        size: 1000,
        sha1: newId('sha').padEnd(40, '0').slice(0, 40),
        received_bytes: 1000,
        is_completed: true,
        language_code: 'en',
        callback_url: receiver.url,
        status: 'done',
        duration_seconds: 12,
        detected_language: 'en',
        failure_reason: null,
        claim: null,
        heartbeat_at: null,
        upload_lock: null,
        upload_lock_until: null,
        completed_at: new Date(),
        processed_at: new Date(),
        crm_request: null,
      })
      .execute();
    return id;
  }

  /** A message for a new file, created now, the receiver answering `statuses` in turn. */
  async function newMessage(statuses: number[]) {
    const fileId = await doneFile();
    const created = new Date(Math.floor(Date.now() / 1000) * 1000);
    now = created;
    receiver.statuses.splice(0, receiver.statuses.length, ...statuses);
    const before = receiver.received.length;
    const messageId = await webhooks.notify(fileId);
    if (!messageId) throw new Error('no message queued');
    return { fileId, created, before, messageId };
  }

  function messageState(messageId: string) {
    return runtime.database.db
      .selectFrom('webhook_messages')
      .select(['status', 'attempts', 'next_attempt_at'])
      .where('id', '=', messageId)
      .executeTakeFirstOrThrow();
  }

  /** Runs each attempt at the time it was scheduled for, until the message is delivered or failed. */
  async function driveUntilSettled(messageId: string): Promise<void> {
    for (let guard = 0; guard < 100; guard++) {
      await webhooks.deliver(messageId);
      const message = await runtime.database.db
        .selectFrom('webhook_messages')
        .selectAll()
        .where('id', '=', messageId)
        .executeTakeFirstOrThrow();
      if (message.status !== 'pending') return;
      if (!message.next_attempt_at) throw new Error('a pending message without a next attempt');
      expect(message.next_attempt_at.getTime()).toBeGreaterThan(now.getTime());
      now = new Date(message.next_attempt_at);
    }
    throw new Error('the message never settled');
  }

  async function attemptsOf(messageId: string) {
    return runtime.database.db
      .selectFrom('webhook_attempts')
      .selectAll()
      .where('message_id', '=', messageId)
      .orderBy('attempt')
      .execute();
  }

  /** When the queue holds the delivery jobs of a message to run (pg-boss's own table). */
  async function queuedRuns(messageId: string): Promise<number[]> {
    const { rows } = await runtime.database.pool.query<{ start_after: Date }>(
      `select start_after from pgboss.job where name = $1 and data->>'messageId' = $2 order by start_after`,
      [deliverWebhookJob.name, messageId],
    );
    return rows.map((row) => new Date(row.start_after).getTime());
  }

  async function fileRow(fileId: string): Promise<SubmittedFile> {
    const response = await runtime.app.inject({
      method: 'GET',
      url: `/api/v1/files/third-party/${fileId}`,
      headers,
    });
    expect(response.statusCode).toBe(200);
    return response.json<SubmittedFile>();
  }

  it('retries a receiver answering 500 with doubling delays and gives up within 24 h of the message', async () => {
    const { fileId, created, before, messageId } = await newMessage(Array<number>(100).fill(500));
    await driveUntilSettled(messageId);
    receiver.statuses.length = 0;

    const message = await runtime.database.db
      .selectFrom('webhook_messages')
      .selectAll()
      .where('id', '=', messageId)
      .executeTakeFirstOrThrow();
    const attempts = await attemptsOf(messageId);
    expect(message.created_at.getTime()).toBe(created.getTime());
    expect(message).toMatchObject({ status: 'failed', next_attempt_at: null, attempts: attempts.length });

    // Every attempt reached the receiver, signed with the time it was made at.
    const deliveries = receiver.received.slice(before);
    expect(deliveries).toHaveLength(attempts.length);
    expect(deliveries.map((hook) => Number(hook.headers['webhook-timestamp']) * 1000)).toEqual(
      attempts.map((attempt) => attempt.at.getTime()),
    );
    expect(new Set(deliveries.map((hook) => hook.headers['webhook-id']))).toEqual(new Set([messageId]));

    // Doubling delays from 5 s, none longer than 4 h; the first attempt at once.
    const offsets = attempts.map((attempt) => attempt.at.getTime() - created.getTime());
    expect(offsets[0]).toBe(0);
    for (let index = 1; index < offsets.length; index++) {
      const expected = Math.min(maxDelayMs, firstRetryDelaySeconds * 1000 * 2 ** (index - 1));
      expect((offsets[index] ?? 0) - (offsets[index - 1] ?? 0), `delay before attempt ${index + 1}`).toBe(
        expected,
      );
    }
    // The last attempt within the day, and it stopped only because the next would have fallen after it.
    const last = offsets.at(-1) ?? 0;
    expect(last).toBeLessThanOrEqual(windowMs);
    expect(
      last + Math.min(maxDelayMs, firstRetryDelaySeconds * 1000 * 2 ** (offsets.length - 1)),
    ).toBeGreaterThan(windowMs);
    expect(last).toBeGreaterThan(windowMs - maxDelayMs);
    expect(attempts.length).toBeGreaterThanOrEqual(10);

    // Each attempt logged as failed with why; each but the last scheduled the next one.
    for (const [index, attempt] of attempts.entries()) {
      expect(attempt).toMatchObject({ attempt: index + 1, succeeded: false, status_code: 500 });
      expect(attempt.error).toContain('HTTP 500');
      const next = attempts[index + 1];
      expect(attempt.next_attempt_at?.getTime() ?? null).toBe(next ? next.at.getTime() : null);
    }
    // The queue holds one run per attempt: the first at once, then each retry at its time.
    const runs = await queuedRuns(messageId);
    expect(runs).toHaveLength(attempts.length);
    expect(runs.slice(1)).toEqual(attempts.slice(1).map((attempt) => attempt.at.getTime()));

    // The file's row: the webhook failed, every attempt visible, newest first.
    expect((await fileRow(fileId)).webhookStatus).toBe('failed');
    const listed = await runtime.app.inject({
      method: 'GET',
      url: `/api/v1/files/third-party/${fileId}/webhook-attempts`,
      headers,
    });
    expect(listed.statusCode).toBe(200);
    const shown = listed.json<WebhookAttempts>().attempts;
    expect(shown.map((attempt) => attempt.attempt)).toEqual(attempts.map((a) => a.attempt).reverse());
    expect(shown[0]).toMatchObject({ statusCode: 500, succeeded: false, nextAttemptAt: null });
    expect(shown.at(-1)?.at).toBe(created.toISOString());

    // A run the queue still makes after the cutoff sends nothing more.
    now = new Date(created.getTime() + windowMs + 3600_000);
    await webhooks.deliver(messageId);
    expect(receiver.received.length - before).toBe(attempts.length);
  });

  it('makes no retry whose run comes after the 24 h window (workers down), and fails the message', async () => {
    const { fileId, created, before, messageId } = await newMessage([500]);
    await webhooks.deliver(messageId);
    expect((await attemptsOf(messageId)).map((attempt) => attempt.next_attempt_at?.getTime())).toEqual([
      created.getTime() + firstRetryDelaySeconds * 1000,
    ]);

    // The retry's run comes 30 hours later: nothing is sent, the message has failed.
    now = new Date(created.getTime() + 30 * 3600_000);
    await webhooks.deliver(messageId);
    expect(receiver.received.length - before).toBe(1);
    expect(await attemptsOf(messageId)).toHaveLength(1);
    expect(await messageState(messageId)).toEqual({ status: 'failed', attempts: 1, next_attempt_at: null });
    expect((await fileRow(fileId)).webhookStatus).toBe('failed');
  });

  it('stops retrying once the receiver answers 2xx after a few failures', async () => {
    const { fileId, created, before, messageId } = await newMessage([500, 503, 500, 204]);
    await driveUntilSettled(messageId);

    const attempts = await attemptsOf(messageId);
    expect(attempts.map((attempt) => [attempt.attempt, attempt.status_code, attempt.succeeded])).toEqual([
      [1, 500, false],
      [2, 503, false],
      [3, 500, false],
      [4, 204, true],
    ]);
    expect(attempts.map((attempt) => attempt.at.getTime() - created.getTime())).toEqual([
      0, 5_000, 15_000, 35_000,
    ]);
    expect(attempts[3]?.next_attempt_at).toBeNull();
    expect(await messageState(messageId)).toEqual({
      status: 'delivered',
      attempts: 4,
      next_attempt_at: null,
    });
    // No run queued after the delivery, and a late duplicate run sends nothing.
    expect(await queuedRuns(messageId)).toHaveLength(4);
    now = new Date(created.getTime() + 3600_000);
    await webhooks.deliver(messageId);
    expect(receiver.received.length - before).toBe(4);
    expect((await fileRow(fileId)).webhookStatus).toBe('delivered');
  });
});
