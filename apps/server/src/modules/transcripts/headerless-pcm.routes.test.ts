import { readFile } from 'node:fs/promises';
import type { ApiError, TranscriptResponse } from '@verbatim/contracts';
import {
  createMediaScratch,
  readManifest,
  sharedModelsDir,
  wordErrorRate,
  type ManifestEntry,
  type MediaScratch,
} from '@verbatim/speech/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createAccount, signIn } from '../../test-support/sign-in.js';
import { startTestRuntime, type TestRuntime } from '../../test-support/test-runtime.js';

/** A real recording of the shared test data, by its path in the manifest. */
function recording(relativePath: string): ManifestEntry {
  const entry = readManifest().find((candidate) => candidate.path === relativePath);
  if (!entry) throw new Error(`${relativePath} is not in the manifest`);
  return entry;
}

// Headerless PCM as telephony systems and embedded recorders send it: real recordings converted to
// raw samples at test time, through the real server and models.
describe('POST /transcripts with headerless PCM (real models, real recordings)', { timeout: 240_000 }, () => {
  let runtime: TestRuntime;
  let scratch: MediaScratch;
  let headers: Record<string, string>;
  const jfk = recording('en/jfk-inaugural.flac');

  /** The recording as raw samples: `-f s16le|f32le -ar RATE -ac CHANNELS`, no header. */
  async function rawPcm(entry: ManifestEntry, encoding: 's16le' | 'f32le', rate: number, channels = 1) {
    const name = `${entry.path.replace(/\W/g, '-')}-${rate}-${channels}.${encoding}`;
    const file = scratch.ffmpeg(
      ['-i', entry.absolutePath, '-ar', String(rate), '-ac', String(channels), '-f', encoding],
      name,
    );
    return readFile(file);
  }

  function post(body: Buffer, query: string, contentType = 'application/octet-stream') {
    return runtime.app.inject({
      method: 'POST',
      url: `/api/v1/transcripts${query}`,
      headers: { ...headers, 'content-type': contentType },
      payload: body,
    });
  }

  beforeAll(async () => {
    runtime = await startTestRuntime({
      env: { SPEECH_MODELS_DIR: sharedModelsDir, SPEECH_WORKERS: '1', SPEECH_THREADS: '2' },
    });
    scratch = createMediaScratch('verbatim-raw-pcm-');
    const account = await createAccount(runtime);
    headers = bearer(await signIn(runtime, account.email));
  }, 120_000);

  afterAll(async () => {
    scratch.dispose();
    await runtime.close();
  });

  it('transcribes 8 kHz 16-bit telephony audio to its reference, with its real duration charged', async () => {
    const body = await rawPcm(jfk, 's16le', 8000);
    const response = await post(body, '?language=en&encoding=s16le&sampleRate=8000');
    expect(response.statusCode, response.body).toBe(200);
    const transcript = response.json<TranscriptResponse>();
    expect(wordErrorRate(jfk.referenceText, transcript.text, 'en').wer, transcript.text).toBeLessThanOrEqual(
      0.1,
    );
    expect(transcript.duration).toBeCloseTo(body.length / 2 / 8000, 2);
    expect(transcript.duration).toBeCloseTo(jfk.durationSeconds, 1);
    expect(transcript.billedSeconds).toBe(Math.ceil(transcript.duration));
  });

  it('transcribes 16 kHz float stereo sent as multipart with form fields, mixed down to mono', async () => {
    const entry = recording('en/ls-dev-clean-2412-153948-0002.flac');
    const body = await rawPcm(entry, 'f32le', 16_000, 2);
    const boundary = 'raw-pcm-boundary';
    const field = (name: string, value: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const payload = Buffer.concat([
      Buffer.from(
        field('language', 'en') +
          field('encoding', 'f32le') +
          field('sampleRate', '16000') +
          field('channels', '2'),
      ),
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="call.raw"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      body,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const response = await post(payload, '', `multipart/form-data; boundary=${boundary}`);
    expect(response.statusCode, response.body).toBe(200);
    const transcript = response.json<TranscriptResponse>();
    expect(
      wordErrorRate(entry.referenceText, transcript.text, 'en').wer,
      transcript.text,
    ).toBeLessThanOrEqual(0.1);
    expect(transcript.duration).toBeCloseTo(body.length / 8 / 16_000, 2);
  });

  it('takes the stated sample rate at its word: 16 kHz audio said to be 8 kHz lasts twice as long', async () => {
    const body = await rawPcm(jfk, 's16le', 16_000);
    const response = await post(body, '?language=en&encoding=s16le&sampleRate=8000');
    expect(response.statusCode, response.body).toBe(200);
    const transcript = response.json<TranscriptResponse>();
    expect(transcript.duration).toBeCloseTo(body.length / 2 / 8000, 2);
    expect(transcript.duration).toBeCloseTo(2 * jfk.durationSeconds, 1);
    expect(transcript.billedSeconds).toBe(Math.ceil(transcript.duration));
  });

  it('refuses headerless audio without its format, naming the parameters to give', async () => {
    const body = await rawPcm(jfk, 's16le', 8000);
    const response = await post(body, '?language=en');
    expect(response.statusCode).toBe(400);
    const error = response.json<ApiError>();
    expect(error.code).toBe('INVALID_FILE');
    expect(error.message).toMatch(/^Not an audio or video file/);
    expect(error.message).toContain('encoding (s16le or f32le), sampleRate and channels');
  });

  it('answers 400 naming the field for an incomplete or impossible format, before any work', async () => {
    const body = await rawPcm(jfk, 's16le', 8000);
    const cases: { query: string; field: string; message: RegExp }[] = [
      { query: '?encoding=s16le', field: 'sampleRate', message: /sampleRate is needed with encoding/ },
      { query: '?sampleRate=8000', field: 'encoding', message: /encoding \(s16le or f32le\) is needed/ },
      { query: '?channels=2', field: 'encoding', message: /encoding .* is needed with channels/ },
      {
        query: '?encoding=mulaw&sampleRate=8000',
        field: 'encoding',
        message: /encoding must be s16le or f32le/,
      },
      { query: '?encoding=s16le&sampleRate=4000', field: 'sampleRate', message: /between 8000 and 192000/ },
      { query: '?encoding=s16le&sampleRate=8000&channels=0', field: 'channels', message: /channels must be/ },
    ];
    for (const { query, field, message } of cases) {
      const response = await post(body, query);
      expect(response.statusCode, query).toBe(400);
      const error = response.json<ApiError>();
      expect(error.code, query).toBe('VALIDATION_FAILED');
      expect(error.details?.[0]?.message, query).toMatch(message);
      expect(error.details?.[0]?.path, query).toEqual([field]);
    }
  });

  it('refuses a body that is not a whole number of samples × channels', async () => {
    const body = await rawPcm(jfk, 's16le', 8000);
    const odd = await post(body.subarray(0, body.length - 1), '?encoding=s16le&sampleRate=8000');
    expect(odd.statusCode).toBe(400);
    expect(odd.json<ApiError>()).toMatchObject({
      code: 'INVALID_FILE',
      message: expect.stringContaining('not a whole number of 16-bit samples × 1 channel') as unknown,
    });
    // An odd number of 16-bit samples cannot be split into two channels.
    const samplesOdd = body.subarray(0, body.length % 4 === 2 ? body.length : body.length - 2);
    const stereo = await post(samplesOdd, '?encoding=s16le&sampleRate=8000&channels=2');
    expect(stereo.statusCode).toBe(400);
    expect(stereo.json<ApiError>().message).toContain('× 2 channels');
  });
});
