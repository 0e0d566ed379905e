import { describe, expect, it } from 'vitest';
import { waitFor } from '../../test-support/wait.js';
import { loggedBy, settledFiles, uploadAll, useWorkerPair } from '../../test-support/worker-pair.js';
import { transcribeFileJob } from './files.jobs.js';

const files = 12;

/**
 * Two workers on one database (PGlite here, PostgreSQL in `npm run test:postgres`), without
 * speech recognition: every file fails at the probe (not audio), which goes through the same
 * queue, claim and outcome as a transcription. The speech variant, with the charge, is
 * files.workers.speech.test.ts (default pass only).
 */
describe('two workers sharing one database take each file exactly once', { timeout: 120_000 }, () => {
  // A model is installed for the engine to take files; none is run (no file is audio).
  const workers = useWorkerPair();

  it('processes each of N files once, with one outcome and one webhook each, even when its job is queued three times', async () => {
    const pair = workers();
    const { first, second, receiver } = pair;
    const recordings = Array.from({ length: files }, (_, index) => ({
      fileName: `notes-${index}.mp3`,
      type: 'audio/mpeg',
      data: Buffer.from(`meeting notes ${index}: plainly text, not a recording\n`.repeat(40)),
    }));
    const { accountId, ids } = await uploadAll(pair, recordings);
    // A duplicated job from each worker's side: the file's claim must make it harmless.
    for (const fileId of ids) {
      await first.queue.send(transcribeFileJob, { fileId });
      await second.queue.send(transcribeFileJob, { fileId });
    }

    const db = first.database.db;
    await waitFor(
      async () =>
        (
          await db
            .selectFrom('webhook_messages')
            .select('id')
            .where('status', '=', 'delivered')
            .where('file_id', 'in', ids)
            .execute()
        ).length >= ids.length,
      'every webhook',
      90_000,
    );
    const rows = await settledFiles(pair, ids);
    expect(rows).toHaveLength(files);
    for (const row of rows) {
      expect(row, row.id).toMatchObject({
        status: 'processing_failed',
        failure_reason: 'Not an audio or video file',
        attempts: 1,
      });
    }

    // Each file's outcome logged once, by one worker; both workers took files.
    const failed = loggedBy(pair, 'file failed');
    expect([...failed.keys()].sort()).toEqual([...ids].sort());
    for (const [fileId, by] of failed) expect(by, fileId).toHaveLength(1);
    const counts = { first: 0, second: 0 };
    for (const [by] of failed.values()) if (by) counts[by] += 1;
    expect(counts.first).toBeGreaterThan(0);
    expect(counts.second).toBeGreaterThan(0);

    // One webhook message per file, delivered once.
    const messages = await db
      .selectFrom('webhook_messages')
      .select(['file_id', 'status', 'attempts'])
      .where('file_id', 'in', ids)
      .execute();
    expect(messages.map((message) => message.file_id).sort()).toEqual([...ids].sort());
    expect(new Set(messages.map((message) => `${message.status}/${message.attempts}`))).toEqual(
      new Set(['delivered/1']),
    );
    const hooked = receiver.received.map((hook) => (JSON.parse(hook.body) as { fileId: string }).fileId);
    expect(hooked.sort()).toEqual([...ids].sort());

    // A failure charges nothing.
    const usage = await db
      .selectFrom('ledger_entries')
      .select('reference')
      .where('account_id', '=', accountId)
      .where('kind', '=', 'usage')
      .execute();
    expect(usage).toEqual([]);
  });
});
