import { readFile } from 'node:fs/promises';
import {
  transcriptWebhookSchema,
  type SubmittedFile,
  type TranscriptJob,
  type TranscriptStatus,
  type WebhookAttempts,
} from '@verbatim/contracts';
import { readManifest, sharedModelsDir, wordErrorRate } from '@verbatim/speech/test-support';
import srtParser from 'srt-parser-2';
import { WebVTTParser } from 'webvtt-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../lib/ids.js';
import { SecretStore } from '../../platform/crypto/secret-store.js';
import { TokenSealer } from '../../platform/crypto/token-sealer.js';
import {
  standardWebhookValid,
  startWebhookReceiver,
  unzip,
  uploadInChunks,
  type WebhookReceiver,
} from '../../test-support/files.js';
import { bearer, createAccount, signIn } from '../../test-support/sign-in.js';
import { startTestRuntime, type TestRuntime } from '../../test-support/test-runtime.js';
import { apiPollMs, waitFor } from '../../test-support/wait.js';
import { WebhooksService } from './webhooks.service.js';

interface Caller {
  headers: Record<string, string>;
  accountId: string;
}

const clip = readManifest().find((entry) => entry.path === 'en/ls-dev-clean-2412-153948-0000.flac');
const shortClip = readManifest().find((entry) => entry.path === 'en/ls-dev-clean-3752-4944-0000.flac');

// Real recognition (tiny.en for English) through the real queue and workers.
describe(
  'submitted files: transcription jobs, webhooks, downloads (real models)',
  { timeout: 300_000 },
  () => {
    let runtime: TestRuntime;
    let receiver: WebhookReceiver;
    let alice: Caller;
    let bob: Caller;

    async function newCaller(): Promise<Caller> {
      const account = await createAccount(runtime);
      return { headers: bearer(await signIn(runtime, account.email)), accountId: account.id };
    }

    async function file(caller: Caller, fileId: string): Promise<SubmittedFile> {
      const response = await runtime.app.inject({
        method: 'GET',
        url: `/api/v1/files/third-party/${fileId}`,
        headers: caller.headers,
      });
      expect(response.statusCode).toBe(200);
      return response.json<SubmittedFile>();
    }

    /** Polls the file until it is done or failed; returns every status seen, in order. */
    async function pollUntilFinished(
      caller: Caller,
      fileId: string,
    ): Promise<{ seen: TranscriptStatus[]; last: SubmittedFile }> {
      const seen: TranscriptStatus[] = [];
      let last = await file(caller, fileId);
      for (const deadline = Date.now() + 280_000; Date.now() < deadline;) {
        if (seen.at(-1) !== last.transcriptStatus) seen.push(last.transcriptStatus);
        if (last.transcriptStatus === 'done' || last.transcriptStatus === 'processing_failed')
          return { seen, last };
        await new Promise((resolve) => setTimeout(resolve, 100));
        last = await file(caller, fileId);
      }
      throw new Error(`file ${fileId} did not finish: ${JSON.stringify(last)}`);
    }

    async function usageEntries(accountId: string) {
      return runtime.database.db
        .selectFrom('ledger_entries')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('kind', '=', 'usage')
        .execute();
    }

    function download(caller: Caller, fileIds: string[], format: string) {
      return runtime.app.inject({
        method: 'GET',
        url: `/api/v1/transcripts/download?fileIds=${fileIds.join(',')}&format=${encodeURIComponent(format)}`,
        headers: caller.headers,
      });
    }

    beforeAll(async () => {
      receiver = await startWebhookReceiver();
      runtime = await startTestRuntime({
        workers: true,
        env: {
          SPEECH_MODELS_DIR: sharedModelsDir,
          SPEECH_MODEL_EN: 'tiny.en-q8_0',
          SPEECH_WORKERS: '1',
          SPEECH_THREADS: '2',
          WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: 'true',
          WEBHOOK_RETRY_FIRST_DELAY_SECONDS: '1',
        },
      });
      alice = await newCaller();
      bob = await newCaller();
    }, 120_000);

    afterAll(async () => {
      await runtime.close();
      await receiver.close();
    });

    let doneFileId = '';

    it('transcribes an uploaded recording to its reference text, seen processing → done, charged once, webhook signed', async () => {
      if (!clip) throw new Error('test clip missing from the manifest');
      const audio = await readFile(clip.absolutePath);
      const state = await uploadInChunks(runtime.app, alice.headers, audio, {
        fileName: 'interview.flac',
        type: 'audio/flac',
        languageCode: 'en',
        callbackUrl: receiver.url,
      });
      expect(state).toMatchObject({ isCompleted: true, size: audio.length });
      doneFileId = state.fileId;

      const { seen, last } = await pollUntilFinished(alice, state.fileId);
      // The worker may take the file before the first look, so 'pending' is not always seen here
      // (files.upload.test.ts sees it without workers); the order, though, never goes backwards.
      const order: TranscriptStatus[] = ['pending', 'processing', 'done'];
      const ranks = seen.map((status) => order.indexOf(status));
      expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
      expect(seen).not.toContain('processing_failed');
      expect(seen).toContain('processing');
      expect(seen.at(-1)).toBe('done');
      expect(last).toMatchObject({
        isCompleted: true,
        detectedLanguage: 'en',
        progress: 100,
        failureReason: null,
      });
      expect(last.duration).toBeCloseTo(clip.durationSeconds, 0);

      const text = await download(alice, [state.fileId], 'text/plain');
      expect(text.statusCode).toBe(200);
      expect(text.headers['content-type']).toMatch(/^text\/plain/);
      expect(text.headers['content-disposition']).toContain('interview.txt');
      expect(wordErrorRate(clip.referenceText, text.body, 'en').wer).toBeLessThan(0.15);

      const charges = (await usageEntries(alice.accountId)).filter(
        (entry) => entry.reference === `file:${state.fileId}`,
      );
      expect(charges).toHaveLength(1);
      expect(charges[0]?.billed_seconds).toBe(Math.ceil(clip.durationSeconds));
      expect(charges[0]?.product).toBe('http_api');

      await waitFor(() => receiver.received.some((hook) => hook.body.includes(state.fileId)), 'the webhook');
      const hook = receiver.received.find((entry) => entry.body.includes(state.fileId));
      if (!hook) throw new Error('no webhook');
      const secret = await runtime.app.inject({
        method: 'GET',
        url: '/api/v1/webhooks/signing-secret',
        headers: alice.headers,
      });
      expect(secret.statusCode).toBe(200);
      const { secret: whsec } = secret.json<{ secret: string }>();
      expect(whsec).toMatch(/^whsec_/);
      expect(standardWebhookValid(whsec, hook.headers, hook.body)).toBe(true);
      expect(standardWebhookValid(whsec, hook.headers, hook.body.replace('done', 'dona'))).toBe(false);
      const body = transcriptWebhookSchema.parse(JSON.parse(hook.body));
      expect(body).toMatchObject({
        fileId: state.fileId,
        status: 'done',
        language: 'en',
        type: 'transcript.done',
      });
      expect(body.transcriptUrl).toContain(`fileIds=${state.fileId}`);
    });

    it('downloads the transcript in every format, and several as one archive; owner only', async () => {
      if (!shortClip) throw new Error('test clip missing from the manifest');
      const second = await uploadInChunks(
        runtime.app,
        alice.headers,
        await readFile(shortClip.absolutePath),
        {
          fileName: 'captain.flac',
          type: 'audio/flac',
          languageCode: 'en',
        },
      );
      expect((await pollUntilFinished(alice, second.fileId)).last.transcriptStatus).toBe('done');

      const json = await download(alice, [doneFileId], 'application/json');
      expect(json.headers['content-type']).toMatch(/^application\/json/);
      expect(json.headers['content-disposition']).toContain('interview.json');
      const parsed = json.json<{ language: string; segments: { text: string }[] }>();
      expect(parsed.language).toBe('en');
      expect(parsed.segments.length).toBeGreaterThan(0);

      const srt = await download(alice, [doneFileId], 'application/x-subrip');
      expect(srt.headers['content-type']).toMatch(/^application\/x-subrip/);
      expect(srt.headers['content-disposition']).toContain('interview.srt');
      const cues = new srtParser().fromSrt(srt.body);
      expect(cues.length).toBeGreaterThan(0);
      expect(
        cues
          .map((cue) => cue.text)
          .join(' ')
          .toLowerCase(),
      ).toContain('excuse me');

      const vtt = await download(alice, [doneFileId], 'text/vtt');
      expect(vtt.headers['content-type']).toMatch(/^text\/vtt/);
      const tree = new WebVTTParser().parse(vtt.body);
      expect(tree.errors).toEqual([]);
      expect(tree.cues.length).toBeGreaterThan(0);

      const archive = await download(alice, [doneFileId, second.fileId], 'application/x-subrip');
      expect(archive.statusCode).toBe(200);
      expect(archive.headers['content-type']).toBe('application/zip');
      expect(archive.headers['content-disposition']).toMatch(/transcripts-.*\.zip/);
      const entries = unzip(archive.rawPayload);
      expect([...entries.keys()].sort()).toEqual(['captain.srt', 'interview.srt']);
      expect(entries.get('captain.srt')?.toString('utf8').toLowerCase()).toContain('captain');

      // Another account: not found, whether asked alone or mixed with its own files.
      expect((await download(bob, [doneFileId], 'text/plain')).statusCode).toBe(404);
      expect((await download(bob, [doneFileId, second.fileId], 'text/plain')).statusCode).toBe(404);
      expect((await download(alice, [doneFileId], 'text/html')).statusCode).toBe(400);
    });

    it('retries a webhook the receiver answered with 500, logs each attempt, and resends on request', async () => {
      receiver.statuses.push(500);
      const before = receiver.received.length;
      const resend = await runtime.app.inject({
        method: 'POST',
        url: `/api/v1/files/third-party/${doneFileId}/webhook-resend`,
        headers: alice.headers,
      });
      expect(resend.statusCode).toBe(202);
      const { messageId } = resend.json<{ messageId: string }>();
      await waitFor(
        () =>
          receiver.received.slice(before).filter((hook) => hook.headers['webhook-id'] === messageId).length >=
          2,
        'the retried webhook',
        30_000,
      );
      const deliveries = receiver.received
        .slice(before)
        .filter((hook) => hook.headers['webhook-id'] === messageId);
      expect(deliveries.map((hook) => hook.answeredWith)).toEqual([500, 200]);
      await waitFor(
        async () => (await file(alice, doneFileId)).webhookStatus === 'delivered',
        'delivered status',
        20_000,
        apiPollMs,
      );

      const attempts = await runtime.app.inject({
        method: 'GET',
        url: `/api/v1/files/third-party/${doneFileId}/webhook-attempts`,
        headers: alice.headers,
      });
      expect(attempts.statusCode).toBe(200);
      const ofMessage = attempts
        .json<WebhookAttempts>()
        .attempts.filter((attempt) => attempt.messageId === messageId);
      expect(ofMessage.map((attempt) => [attempt.attempt, attempt.statusCode, attempt.succeeded])).toEqual([
        [2, 200, true],
        [1, 500, false],
      ]);
      expect(ofMessage[1]?.error).toContain('500');
      expect(ofMessage[1]?.nextAttemptAt).not.toBeNull();

      for (const url of [
        `/api/v1/files/third-party/${doneFileId}/webhook-attempts`,
        `/api/v1/files/third-party/${doneFileId}`,
      ]) {
        expect((await runtime.app.inject({ method: 'GET', url, headers: bob.headers })).statusCode).toBe(404);
      }
      const bobResend = await runtime.app.inject({
        method: 'POST',
        url: `/api/v1/files/third-party/${doneFileId}/webhook-resend`,
        headers: bob.headers,
      });
      expect(bobResend.statusCode).toBe(404);
    });

    it('refuses to deliver to a private or loopback address unless the switch allows it', async () => {
      const refusing = new WebhooksService({
        db: runtime.database.db,
        queue: runtime.queue,
        publicUrl: 'http://localhost',
        // The server's own key (generated once, kept with its secrets): it opens the stored secrets.
        sealer: await TokenSealer.open(null, new SecretStore(runtime.database.db)),
        allowPrivateAddresses: false,
        timeoutMs: 10_000,
        firstRetryDelaySeconds: 3600,
        logger: runtime.logger,
      });
      const before = receiver.received.length;
      const messageId = newId('msg');
      await runtime.database.db
        .insertInto('webhook_messages')
        .values({
          id: messageId,
          account_id: alice.accountId,
          file_id: doneFileId,
          url: receiver.url,
          payload: '{}',
          next_attempt_at: new Date(),
        })
        .execute();
      await refusing.deliver(messageId);
      expect(receiver.received.length).toBe(before);
      const attempt = await runtime.database.db
        .selectFrom('webhook_attempts')
        .selectAll()
        .where('message_id', '=', messageId)
        .executeTakeFirstOrThrow();
      expect(attempt).toMatchObject({ succeeded: false, status_code: null });
      expect(attempt.error).toMatch(/^Refused: .*127\.0\.0\.1.*private, loopback/);
    });

    it('runs the public jobs API: audio in the body, status by polling, transcript in a format, delete', async () => {
      if (!shortClip) throw new Error('test clip missing from the manifest');
      const audio = await readFile(shortClip.absolutePath);
      // The same content as an earlier upload is refused: delete that one first.
      const earlier = await runtime.app.inject({
        method: 'GET',
        url: '/api/v1/files/third-party?start=0&limit=10',
        headers: alice.headers,
      });
      const captain = earlier
        .json<{ list: SubmittedFile[] }>()
        .list.find((entry) => entry.fileName === 'captain.flac');
      if (captain) {
        const again = await runtime.app.inject({
          method: 'POST',
          url: '/api/v1/transcripts/jobs?language=en',
          headers: { ...alice.headers, 'content-type': 'audio/flac' },
          payload: audio,
        });
        expect(again.statusCode).toBe(409);
        expect(again.json()).toMatchObject({ code: 'FILE_ALREADY_EXISTS', message: 'File already exists' });
        await runtime.app.inject({
          method: 'DELETE',
          url: `/api/v1/files/third-party/${captain.id}`,
          headers: alice.headers,
        });
      }
      const created = await runtime.app.inject({
        method: 'POST',
        url: '/api/v1/transcripts/jobs?language=en&fileName=captain.flac',
        headers: { ...alice.headers, 'content-type': 'audio/flac' },
        payload: audio,
      });
      expect(created.statusCode).toBe(202);
      const job = created.json<TranscriptJob>();
      expect(job).toMatchObject({
        isCompleted: true,
        transcriptStatus: 'pending',
        transcript: null,
        fileName: 'captain.flac',
      });

      let current = job;
      await waitFor(
        async () => {
          const response = await runtime.app.inject({
            method: 'GET',
            url: `/api/v1/transcripts/jobs/${job.id}`,
            headers: alice.headers,
          });
          current = response.json<TranscriptJob>();
          return current.transcriptStatus === 'done';
        },
        'the job',
        120_000,
        apiPollMs,
      );
      expect(current.transcript?.text.toLowerCase()).toContain('captain');
      const srt = await runtime.app.inject({
        method: 'GET',
        url: `/api/v1/transcripts/jobs/${job.id}?format=srt`,
        headers: alice.headers,
      });
      expect(srt.statusCode).toBe(200);
      expect(srt.body).toMatch(/^1\r?\n00:00:/);

      expect(
        (
          await runtime.app.inject({
            method: 'GET',
            url: `/api/v1/transcripts/jobs/${job.id}`,
            headers: bob.headers,
          })
        ).statusCode,
      ).toBe(404);
      expect(
        (
          await runtime.app.inject({
            method: 'DELETE',
            url: `/api/v1/transcripts/jobs/${job.id}`,
            headers: bob.headers,
          })
        ).statusCode,
      ).toBe(404);
      const deleted = await runtime.app.inject({
        method: 'DELETE',
        url: `/api/v1/transcripts/jobs/${job.id}`,
        headers: alice.headers,
      });
      expect(deleted.statusCode).toBe(204);
      expect(
        (
          await runtime.app.inject({
            method: 'GET',
            url: `/api/v1/transcripts/jobs/${job.id}`,
            headers: alice.headers,
          })
        ).statusCode,
      ).toBe(404);
      expect((await download(alice, [job.id], 'text/plain')).statusCode).toBe(404);
    });

    it('fails with a human reason: not audio, no speech, insufficient credit (charging nothing)', async () => {
      const carol = await newCaller();
      const notAudio = Buffer.from('this is plainly a text file and not a recording at all\n'.repeat(50));
      const silence = wavOfSilence(3);
      const outcomes: Record<string, string | null> = {};
      for (const [name, data, type] of [
        ['notes.mp3', notAudio, 'audio/mpeg'],
        ['silence.wav', silence, 'audio/wav'],
      ] as const) {
        const state = await uploadInChunks(runtime.app, carol.headers, data, {
          fileName: name,
          type,
          languageCode: 'en',
        });
        const { last } = await pollUntilFinished(carol, state.fileId);
        expect(last.transcriptStatus).toBe('processing_failed');
        outcomes[name] = last.failureReason;
      }
      expect(outcomes).toEqual({
        'notes.mp3': 'Not an audio or video file',
        'silence.wav': 'No speech found',
      });

      // Spend the whole balance (50 hours at $0.10), then upload: refused from the probed duration before any work.
      await runtime.services.credits.charge({
        accountId: carol.accountId,
        apiKeyId: null,
        product: 'http_api',
        seconds: (runtime.config.accounts.startingCreditCents / 10) * 3600,
        reference: 'test:spend-everything',
      });
      if (!clip) throw new Error('test clip missing from the manifest');
      const state = await uploadInChunks(runtime.app, carol.headers, await readFile(clip.absolutePath), {
        fileName: 'broke.flac',
        type: 'audio/flac',
        languageCode: 'en',
      });
      const { last } = await pollUntilFinished(carol, state.fileId);
      expect(last).toMatchObject({
        transcriptStatus: 'processing_failed',
        failureReason: 'Insufficient credit',
      });
      expect((await usageEntries(carol.accountId)).map((entry) => entry.reference)).toEqual([
        'test:spend-everything',
      ]);
      const notReady = await download(carol, [state.fileId], 'text/plain');
      expect(notReady.statusCode).toBe(409);
      expect(notReady.json()).toMatchObject({ code: 'TRANSCRIPT_NOT_READY' });
    });
  },
);

/** A mono 16 kHz 16-bit WAV of digital silence. */
function wavOfSilence(seconds: number): Buffer {
  const samples = 16_000 * seconds;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + samples * 2, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(16_000, 24);
  header.writeUInt32LE(32_000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(samples * 2, 40);
  return Buffer.concat([header, Buffer.alloc(samples * 2)]);
}
