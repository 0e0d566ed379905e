import { readFile } from 'node:fs/promises';
import { readManifest } from '@verbatim/speech/test-support';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../../test-support/wait.js';
import { loggedBy, settledFiles, uploadAll, useWorkerPair } from '../../test-support/worker-pair.js';
import { transcribeFileJob } from './files.jobs.js';

/** Short English clips (3 to 6 s), each a different recording. */
const clips = [
  'en/ls-dev-clean-3752-4944-0000.flac',
  'en/ls-dev-clean-3752-4944-0001.flac',
  'en/ls-dev-clean-3752-4944-0002.flac',
  'en/ls-dev-clean-1988-24833-0000.flac',
  'en/ls-dev-clean-2412-153948-0002.flac',
  'en/librivox-sense-sensibility-0880.wav',
].map((clipPath) => {
  const entry = readManifest().find((candidate) => candidate.path === clipPath);
  if (!entry) throw new Error(`${clipPath} missing from the manifest`);
  return entry;
});

/**
 * Two workers, each with its own recogniser, transcribe N uploads sharing one database: each file
 * transcribed once and charged once. Real recognition (tiny.en): default pass only (the database
 * behaviour without speech is files.workers.test.ts, which also runs on PostgreSQL).
 */
describe('two workers transcribe N files: each once, charged once', { timeout: 300_000 }, () => {
  const workers = useWorkerPair();

  it('transcribes each file once, by one worker, charges it once at its duration, and both workers work', async () => {
    const pair = workers();
    const { first, second, receiver } = pair;
    const recordings = await Promise.all(
      clips.map(async (clip) => ({
        fileName: clip.path.split('/').at(-1) ?? 'clip',
        type: clip.path.endsWith('.wav') ? 'audio/wav' : 'audio/flac',
        data: await readFile(clip.absolutePath),
      })),
    );
    const { accountId, ids } = await uploadAll(pair, recordings);
    for (const fileId of ids) await second.queue.send(transcribeFileJob, { fileId });

    const db = first.database.db;
    await waitFor(
      async () => {
        const finished = await db
          .selectFrom('submitted_files')
          .select('id')
          .where('id', 'in', ids)
          .where('status', 'in', ['done', 'processing_failed'])
          .execute();
        return finished.length === ids.length;
      },
      'every transcription',
      240_000,
    );
    const rows = await settledFiles(pair, ids);
    for (const row of rows) {
      expect(row, row.id).toMatchObject({ status: 'done', attempts: 1, failure_reason: null });
    }

    const transcribed = loggedBy(pair, 'file transcribed');
    expect([...transcribed.keys()].sort()).toEqual([...ids].sort());
    for (const [fileId, by] of transcribed) expect(by, fileId).toHaveLength(1);
    const sides = [...transcribed.values()].map(([by]) => by);
    expect(sides).toContain('first');
    expect(sides).toContain('second');

    // One usage entry per file, under its reference, at the transcribed duration.
    const usage = await db
      .selectFrom('ledger_entries')
      .select(['reference', 'billed_seconds', 'product'])
      .where('account_id', '=', accountId)
      .where('kind', '=', 'usage')
      .execute();
    expect(usage.map((entry) => entry.reference).sort()).toEqual(ids.map((id) => `file:${id}`).sort());
    for (const row of rows) {
      const entry = usage.find((candidate) => candidate.reference === `file:${row.id}`);
      expect(entry).toMatchObject({
        product: 'http_api',
        billed_seconds: Math.ceil(row.duration_seconds ?? 0),
      });
    }
    for (const [index, clip] of clips.entries()) {
      const row = rows.find((candidate) => candidate.id === ids[index]);
      expect(row?.duration_seconds).toBeCloseTo(clip.durationSeconds, 0);
    }

    await waitFor(() => receiver.received.length >= ids.length, 'the webhooks');
    const hooked = receiver.received.map((hook) => (JSON.parse(hook.body) as { fileId: string }).fileId);
    expect(hooked.sort()).toEqual([...ids].sort());
  });
});
