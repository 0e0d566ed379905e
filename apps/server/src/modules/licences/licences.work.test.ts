import { readFile } from 'node:fs/promises';
import type { ApiError, TranscriptJob } from '@verbatim/contracts';
import { decodedRecording, sharedModelsDir, testdataFile } from '@verbatim/speech/test-support';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadInChunks } from '../../test-support/files.js';
import { testLicenceSigner } from '../../test-support/licence-keys.js';
import { openLive } from '../../test-support/live-socket.js';
import { bearer, createAccount, signIn } from '../../test-support/sign-in.js';
import { startTestRuntime, type TestRuntime } from '../../test-support/test-runtime.js';
import { apiPollMs, waitFor } from '../../test-support/wait.js';

const captainClip = 'en/ls-dev-clean-3752-4944-0000.flac';
const maxUses = 120;

// Real recognition through the real queue, workers and live socket, on an air-gapped installation
// (no licence server: the licence counts the journal itself), on two shared cores.
describe(
  'the on-premise edition meters file jobs and live sessions against its licence',
  { timeout: 300_000 },
  () => {
    const signer = testLicenceSigner();
    let site: TestRuntime;
    let base: string;
    let captain: Float32Array;
    let nurse: { accountId: string; token: string; headers: Record<string, string> };

    async function journal(like: string): Promise<{ reference: string; seconds: number }[]> {
      const rows = await site.database.db
        .selectFrom('licence_usage_journal')
        .select(['reference', 'seconds'])
        .where('reference', 'like', like)
        .orderBy('id')
        .execute();
      return rows.map((row) => ({ reference: row.reference, seconds: Number(row.seconds) }));
    }

    async function used(): Promise<number> {
      const row = await site.database.db
        .selectFrom('licence_usage_journal')
        .select(sql<string>`coalesce(sum(seconds), 0)`.as('seconds'))
        .executeTakeFirstOrThrow();
      return Number(row.seconds);
    }

    /** A job of one recording (a file is accepted once: each job sends another recording). */
    async function submitJob(clip: string): Promise<TranscriptJob> {
      const created = await site.app.inject({
        method: 'POST',
        url: '/api/v1/transcripts/jobs?language=en',
        headers: { ...nurse.headers, 'content-type': clip.endsWith('.wav') ? 'audio/wav' : 'audio/flac' },
        payload: await readFile(testdataFile(clip)),
      });
      expect(created.statusCode, created.body).toBe(202);
      return created.json<TranscriptJob>();
    }

    async function finished(job: Pick<TranscriptJob, 'id' | 'fileName'>): Promise<TranscriptJob> {
      let current: TranscriptJob | undefined;
      await waitFor(
        async () => {
          const response = await site.app.inject({
            method: 'GET',
            url: `/api/v1/transcripts/jobs/${job.id}`,
            headers: nurse.headers,
          });
          const polled = response.json<TranscriptJob>();
          current = polled;
          return polled.transcriptStatus === 'done' || polled.transcriptStatus === 'processing_failed';
        },
        `job ${job.fileName}`,
        180_000,
        apiPollMs,
      );
      if (!current) throw new Error(`job ${job.fileName} never answered`);
      return current;
    }

    function live() {
      return openLive(
        `${base}/api/v1/transcripts/streaming?${new URLSearchParams({ accessToken: nurse.token, languageCode: 'en' }).toString()}`,
      );
    }

    beforeAll(async () => {
      site = await startTestRuntime({
        workers: true,
        env: {
          LICENSE_KEY: signer.key({ expiresAt: new Date(Date.now() + 90 * 86_400_000), maxUses }),
          LICENSE_PUBLIC_KEY: signer.publicKey,
          // No credit at all: the on-premise edition must not look at it.
          STARTING_CREDIT_CENTS: '0',
          SPEECH_MODELS_DIR: sharedModelsDir,
          SPEECH_MODEL: 'tiny.en-q8_0',
          SPEECH_WORKERS: '1',
          SPEECH_THREADS: '2',
          LIVE_METERING_SLICE_SECONDS: '2',
          RATE_LIMIT_MAX: '10000',
        },
      });
      base = (await site.app.listen({ host: '127.0.0.1', port: 0 })).replace(/^http/, 'ws');
      captain = await decodedRecording(testdataFile(captainClip));
      const account = await createAccount(site);
      const tokens = await signIn(site, account.email);
      nurse = { accountId: account.id, token: tokens.access_token, headers: bearer(tokens) };
    }, 120_000);

    afterAll(async () => {
      await site?.close();
    });

    it('journals a file job’s seconds (with its completion) and a live session’s slices', async () => {
      const job = await finished(await submitJob(captainClip));
      expect(job.transcriptStatus, job.failureReason ?? '').toBe('done');
      expect(job.duration).toBeGreaterThan(0);
      expect(await journal(`${nurse.accountId}:file:${job.id}`)).toEqual([
        { reference: `${nurse.accountId}:file:${job.id}`, seconds: Math.ceil(job.duration ?? 0) },
      ]);

      const session = live();
      await session.connected;
      session.socket.send(captain);
      session.socket.send('Done');
      expect((await session.closed).code).toBe(1000);
      expect(session.messages.some((message) => message.type === 'final')).toBe(true);
      const slices = await journal(`${nurse.accountId}:live:%`);
      expect(slices.length).toBeGreaterThanOrEqual(2);
      // Each slice counts its started seconds: the session's audio, at most one second more per slice.
      const audioSeconds = captain.length / 16_000;
      const total = slices.reduce((sum, slice) => sum + slice.seconds, 0);
      expect(total).toBeGreaterThanOrEqual(Math.floor(audioSeconds));
      expect(total).toBeLessThanOrEqual(Math.ceil(audioSeconds) + slices.length);
    });

    it('once used up, refuses a new job and a new live session with LICENSE_EXHAUSTED while admitted work completes', async () => {
      // A live session admitted while the licence has seconds left.
      const running = live();
      await running.connected;
      // One second left: a job admitted now (shorter than the licence, longer than what remains) completes.
      await site.services.usageMeter.charge({
        accountId: nurse.accountId,
        apiKeyId: null,
        product: 'http_api',
        seconds: maxUses - (await used()) - 1,
        reference: 'test:fill',
      });
      const admitted = await finished(await submitJob('en/librivox-sense-sensibility-0880.wav'));
      expect(admitted.transcriptStatus, admitted.failureReason ?? '').toBe('done');
      expect(await used()).toBeGreaterThan(maxUses);

      // Used up: a new job is refused at once; one uploaded from the console fails with the
      // licence's reason, never retried; a new live session is refused.
      const refusedJob = await site.app.inject({
        method: 'POST',
        url: '/api/v1/transcripts/jobs?language=en',
        headers: { ...nurse.headers, 'content-type': 'audio/flac' },
        payload: await readFile(testdataFile('en/ls-dev-clean-3752-4944-0002.flac')),
      });
      expect(refusedJob.statusCode, refusedJob.body).toBe(402);
      expect(refusedJob.json<ApiError>().code).toBe('LICENSE_EXHAUSTED');
      const uploaded = await uploadInChunks(
        site.app,
        nurse.headers,
        await readFile(testdataFile('en/ls-dev-clean-3752-4944-0002.flac')),
        { fileName: 'refused.flac', type: 'audio/flac', languageCode: 'en' },
      );
      const failed = await finished({ id: uploaded.fileId, fileName: 'refused.flac' });
      expect(failed.transcriptStatus).toBe('processing_failed');
      expect(failed.failureReason).toContain('has used all its');
      expect(await journal(`${nurse.accountId}:file:${uploaded.fileId}`)).toEqual([]);
      const refusedSession = live();
      const refusedClose = await refusedSession.closed;
      expect(refusedClose.code).toBe(4402);
      expect(JSON.parse(refusedClose.reason)).toMatchObject({ code: 'LICENSE_EXHAUSTED' });
      expect(refusedSession.messages).toEqual([]);

      // The session admitted before runs to its end, and its slices are counted.
      const before = (await journal(`${nurse.accountId}:live:%`)).length;
      running.socket.send(captain);
      running.socket.send('Done');
      expect((await running.closed).code).toBe(1000);
      expect(running.messages.some((message) => message.type === 'final')).toBe(true);
      expect((await journal(`${nurse.accountId}:live:%`)).length).toBeGreaterThan(before);
    });
  },
);
