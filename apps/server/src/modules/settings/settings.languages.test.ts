import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { apiErrorSchema, settingsSchema, transcriptionLanguageEntrySchema } from '@verbatim/contracts';
import { sharedModelsDir } from '@verbatim/speech/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bearer, createAccount, signIn } from '../../test-support/sign-in.js';
import { startTestRuntime, type TestRuntime } from '../../test-support/test-runtime.js';

/** One recogniser thread is enough: these tests only ask which languages the models serve. */
const speechEnv = { SPEECH_WORKERS: '1', SPEECH_THREADS: '1' };

async function signedInHeaders(runtime: TestRuntime) {
  const account = await createAccount(runtime);
  return bearer(await signIn(runtime, account.email));
}

async function languages(runtime: TestRuntime, headers: Record<string, string>, query = '') {
  const response = await runtime.app.inject({
    method: 'GET',
    url: `/api/v1/settings/transcript-languages${query}`,
    headers,
  });
  expect(response.statusCode, response.body).toBe(200);
  return z.array(transcriptionLanguageEntrySchema).parse(response.json());
}

function putTranscriptLanguage(runtime: TestRuntime, headers: Record<string, string>, language: string) {
  return runtime.app.inject({
    method: 'PUT',
    url: '/api/v1/settings',
    headers,
    payload: { transcripts: { language } },
  });
}

describe('transcript languages with only tiny.en installed', () => {
  let runtime: TestRuntime;
  let modelsDir: string;
  beforeAll(async () => {
    modelsDir = await mkdtemp(path.join(tmpdir(), 'verbatim-tiny-en-'));
    await symlink(
      path.join(sharedModelsDir, 'ggml-tiny.en-q8_0.bin'),
      path.join(modelsDir, 'ggml-tiny.en-q8_0.bin'),
    );
    runtime = await startTestRuntime({ env: { ...speechEnv, SPEECH_MODELS_DIR: modelsDir } });
  }, 120_000);
  afterAll(async () => {
    await runtime.close();
    await rm(modelsDir, { recursive: true, force: true });
  });

  it('lists English alone, realtime, with no French (Medical)', async () => {
    const headers = await signedInHeaders(runtime);
    expect(await languages(runtime, headers)).toEqual([
      { code: 'en', name: 'English', isRealtimeSupported: true },
    ]);
    expect(await languages(runtime, headers, '?locale=fr')).toEqual([
      { code: 'en', name: 'Anglais', isRealtimeSupported: true },
    ]);
  });

  it('refuses a default language the installed model cannot transcribe', async () => {
    const headers = await signedInHeaders(runtime);
    for (const language of ['fr', 'fr-medical', 'de']) {
      const response = await putTranscriptLanguage(runtime, headers, language);
      expect(response.statusCode, language).toBe(400);
      const body = apiErrorSchema.parse(response.json());
      expect(body.message).toBe(
        `The language "${language}" is not one the installed speech models transcribe.`,
      );
      expect(body.details?.[0]).toMatchObject({
        path: ['transcripts', 'language'],
        message: 'Invalid language',
      });
    }
    expect((await putTranscriptLanguage(runtime, headers, 'en')).statusCode).toBe(200);
  });
});

describe('transcript languages with the multilingual base model', () => {
  let runtime: TestRuntime;
  beforeAll(async () => {
    runtime = await startTestRuntime({ env: { ...speechEnv, SPEECH_MODELS_DIR: sharedModelsDir } });
  }, 120_000);
  afterAll(() => runtime.close());

  it("names every language in the account's interface language, French (Medical) right after the others", async () => {
    const headers = await signedInHeaders(runtime);
    const english = await languages(runtime, headers);
    expect(english.length).toBeGreaterThan(90);
    expect(english.find((entry) => entry.code === 'fr')).toEqual({
      code: 'fr',
      name: 'French',
      isRealtimeSupported: true,
    });
    expect(english.at(-1)).toEqual({
      code: 'fr-medical',
      name: 'French (Medical)',
      isRealtimeSupported: true,
    });
    expect(english.filter((entry) => entry.code === 'fr-medical')).toHaveLength(1);
    // The list says which languages work live: some do, some do not.
    expect(english.some((entry) => !entry.isRealtimeSupported)).toBe(true);
    expect(english.filter((entry) => entry.isRealtimeSupported).length).toBeGreaterThan(1);
    expect(new Set(english.map((entry) => entry.code)).size).toBe(english.length);

    const saved = await runtime.app.inject({
      method: 'PUT',
      url: '/api/v1/settings',
      headers,
      payload: { language: 'fr' },
    });
    expect(settingsSchema.parse(saved.json()).language).toBe('fr');
    const french = await languages(runtime, headers);
    expect(french.find((entry) => entry.code === 'de')?.name).toBe('Allemand');
    expect(french.at(-1)).toEqual({
      code: 'fr-medical',
      name: 'Français (médical)',
      isRealtimeSupported: true,
    });
    // An explicit locale wins over the account's.
    expect((await languages(runtime, headers, '?locale=en')).find((entry) => entry.code === 'de')?.name).toBe(
      'German',
    );
  });

  it('accepts any language of the list as the default, French (Medical) included', async () => {
    const headers = await signedInHeaders(runtime);
    for (const language of ['fr-medical', 'de', 'fr', 'en']) {
      const response = await putTranscriptLanguage(runtime, headers, language);
      expect(response.statusCode, response.body).toBe(200);
      expect(settingsSchema.parse(response.json()).transcripts.language).toBe(language);
    }
  });
});
