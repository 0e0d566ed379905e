import { readFile } from 'node:fs/promises';
import { testdataFile } from '@verbatim/speech/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createAccount, signIn } from '../../test-support/sign-in.js';
import { startTestRuntime, type TestRuntime } from '../../test-support/test-runtime.js';

describe('a server without a speech model', () => {
  let runtime: TestRuntime;

  beforeAll(async () => {
    // The test runtime's own empty models folder, and no download.
    runtime = await startTestRuntime();
  });

  afterAll(async () => {
    await runtime.close();
  });

  it('serves everything else, reports the engine as not ready with the fix, and answers 503 SPEECH_UNAVAILABLE', async () => {
    const ready = await runtime.app.inject({ method: 'GET', url: '/api/v1/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({
      status: 'ready',
      checks: {
        speech: {
          ok: false,
          models: [],
          detail: expect.stringContaining('models download base-q8_0') as string,
        },
      },
    });
    const account = await createAccount(runtime);
    const headers = bearer(await signIn(runtime, account.email));
    for (const query of ['', '?language=en']) {
      const response = await runtime.app.inject({
        method: 'POST',
        url: `/api/v1/transcripts${query}`,
        headers: { ...headers, 'content-type': 'audio/flac' },
        payload: await readFile(testdataFile('en/jfk-inaugural.flac')),
      });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ code: 'SPEECH_UNAVAILABLE' });
    }
    const usages = await runtime.app.inject({ method: 'GET', url: '/api/v1/limiter/usages', headers });
    expect(usages.json<{ name: string; calls: number }[]>().every((usage) => usage.calls === 0)).toBe(true);
  });
});
