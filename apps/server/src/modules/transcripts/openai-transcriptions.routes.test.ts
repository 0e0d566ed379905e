import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { sharedModelsDir, testdataFile } from '@verbatim/speech/test-support';
import OpenAI, { toFile } from 'openai';
import srtParser from 'srt-parser-2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createAccount, signIn } from '../../test-support/sign-in.js';
import { startTestRuntime, type TestRuntime } from '../../test-support/test-runtime.js';

describe(
  'OpenAI-compatible POST /audio/transcriptions, driven by the official openai SDK',
  { timeout: 120_000 },
  () => {
    let runtime: TestRuntime;
    let client: OpenAI;
    let baseURL: string;
    let apiKey: string;

    beforeAll(async () => {
      runtime = await startTestRuntime({ env: { SPEECH_MODELS_DIR: sharedModelsDir } });
      const address = await runtime.app.listen({ host: '127.0.0.1', port: 0 });
      baseURL = `${address}/api/v1`;
      const account = await createAccount(runtime);
      const created = await runtime.app.inject({
        method: 'POST',
        url: '/api/v1/auth/api-keys',
        headers: bearer(await signIn(runtime, account.email)),
        payload: { name: 'openai sdk' },
      });
      apiKey = created.json<{ apiKey: string }>().apiKey;
      client = new OpenAI({ apiKey, baseURL, maxRetries: 0 });
    }, 120_000);

    afterAll(async () => {
      await runtime.close();
    });

    it('answers json, verbose_json with words and segments, text and srt', async () => {
      const json = await client.audio.transcriptions.create({
        file: createReadStream(testdataFile('en/jfk-inaugural.flac')),
        model: 'whisper-1',
      });
      expect(json.text).toMatch(/ask,? not,? what your country can do for you/i);

      const verbose = await client.audio.transcriptions.create({
        file: createReadStream(testdataFile('en/jfk-inaugural.flac')),
        model: 'whisper-1',
        language: 'en',
        response_format: 'verbose_json',
        timestamp_granularities: ['word', 'segment'],
      });
      expect(verbose.language).toBe('english');
      expect(verbose.duration).toBeCloseTo(11, 1);
      expect(verbose.words?.map((word) => word.word).join(' ')).toMatch(/fellow Americans/);
      expect(verbose.segments?.length).toBeGreaterThan(0);
      expect(verbose.segments?.[0]?.start).toBeGreaterThanOrEqual(0);

      const text = await client.audio.transcriptions.create({
        file: await toFile(await readFile(testdataFile('fr/fleurs-fr-002.ogg')), 'fleurs.ogg'),
        model: 'whisper-1',
        language: 'fr',
        response_format: 'text',
      });
      expect(String(text)).toMatch(/responsabilité/i);

      const srt = await client.audio.transcriptions.create({
        file: createReadStream(testdataFile('en/jfk-inaugural.flac')),
        model: 'whisper-1',
        response_format: 'srt',
      });
      const cues = new srtParser().fromSrt(String(srt));
      expect(cues.length).toBeGreaterThan(0);
      expect(cues.map((cue) => cue.text).join(' ')).toMatch(/your country/);
    });

    it("answers errors in OpenAI's shape beside the product's, so the SDK raises them", async () => {
      const error = await client.audio.transcriptions
        .create({ file: await toFile(Buffer.from('not audio at all'), 'notes.mp3'), model: 'whisper-1' })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      const badRequest = error as InstanceType<typeof OpenAI.BadRequestError>;
      expect(badRequest.status).toBe(400);
      expect(badRequest.code).toBe('invalid_file');
      expect(badRequest.type).toBe('invalid_request_error');

      const unauthenticated = await new OpenAI({
        apiKey: 'vbt_live_wrong',
        baseURL,
        maxRetries: 0,
      }).audio.transcriptions
        .create({ file: createReadStream(testdataFile('en/jfk-inaugural.flac')), model: 'whisper-1' })
        .catch((caught: unknown) => caught);
      expect(unauthenticated).toBeInstanceOf(OpenAI.AuthenticationError);

      const raw = await fetch(`${baseURL}/audio/transcriptions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'audio/wav' },
        body: 'RIFF',
      });
      expect(raw.status).toBe(415);
      expect(await raw.json()).toMatchObject({
        code: 'UNSUPPORTED_MEDIA_TYPE',
        error: { type: 'invalid_request_error', code: 'unsupported_media_type' },
      });
    });
  },
);
