import { mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  fileTranscriptSchema,
  openAiDiarizedTranscriptionSchema,
  recordingAudioUrlSchema,
  transcriptJobSchema,
  transcriptSchema,
  type FileTranscript,
  type TranscriptJob,
} from '@verbatim/contracts';
import { createMediaScratch, sharedModelsDir, testdataFile } from '@verbatim/speech/test-support';
import srtParser from 'srt-parser-2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createAccount, signIn } from '../../test-support/sign-in.js';
import { startTestRuntime, type TestRuntime } from '../../test-support/test-runtime.js';
import { apiPollMs, waitFor } from '../../test-support/wait.js';

/** A real recording of two speakers taking turns (pyannote's sample, 30 s, reference RTTM beside it). */
const twoSpeakers = testdataFile('diarization/pyannote-sample.wav');

interface Caller {
  headers: Record<string, string>;
  accountId: string;
}

/** What every diarized transcript must hold, whatever the recording says. */
function expectSpeakersConsistent(transcript: FileTranscript): void {
  const ids = transcript.speakers?.map((speaker) => speaker.id) ?? [];
  expect(ids.length).toBeGreaterThanOrEqual(2);
  expect(ids).toEqual(ids.map((_, index) => `S${index + 1}`));
  expect(transcript.speakerTurns?.length).toBeGreaterThan(1);
  for (const turn of transcript.speakerTurns ?? []) {
    expect(ids).toContain(turn.speaker);
    expect(turn.end).toBeGreaterThan(turn.start);
  }
  // Every segment and word has a speaker; a segment never spans two.
  const firstAppearance: string[] = [];
  for (const segment of transcript.segments) {
    expect(ids).toContain(segment.speaker);
    expect(segment.words.length).toBeGreaterThan(0);
    for (const word of segment.words) {
      expect(word.speaker).toBe(segment.speaker);
      if (!firstAppearance.includes(word.speaker ?? '')) firstAppearance.push(word.speaker ?? '');
    }
  }
  // Numbered in order of first appearance in the words.
  expect(firstAppearance).toEqual(ids.slice(0, firstAppearance.length));
  // The two voices of the sample both say something.
  expect(firstAppearance.length).toBeGreaterThanOrEqual(2);
}

// Real recognition and real diarization networks on two shared cores.
describe(
  'speaker diarization through the API (real models, a real two-speaker recording)',
  { timeout: 300_000 },
  () => {
    let runtime: TestRuntime;
    let alice: Caller;
    let bob: Caller;
    let recording: Buffer;

    async function newCaller(): Promise<Caller> {
      const account = await createAccount(runtime);
      return { headers: bearer(await signIn(runtime, account.email)), accountId: account.id };
    }

    /** POST /transcripts`path` (a job with `/jobs…`) with a recording, the sample by default. */
    function transcribe(caller: Caller, path: string, body = recording, contentType = 'audio/wav') {
      return runtime.app.inject({
        method: 'POST',
        url: `/api/v1/transcripts${path}`,
        headers: { ...caller.headers, 'content-type': contentType },
        payload: body,
      });
    }

    /** The job once its transcription has ended, done or failed (read every `apiPollMs`). */
    async function jobWhenFinished(caller: Caller, fileId: string): Promise<TranscriptJob> {
      let last: TranscriptJob | undefined;
      await waitFor(
        async () => {
          const read = await runtime.app.inject({
            method: 'GET',
            url: `/api/v1/transcripts/jobs/${fileId}`,
            headers: caller.headers,
          });
          expect(read.statusCode, read.body).toBe(200);
          last = transcriptJobSchema.parse(read.json());
          return last.transcriptStatus === 'done' || last.transcriptStatus === 'processing_failed';
        },
        'the job',
        240_000,
        apiPollMs,
      );
      if (!last) throw new Error('no job read');
      return last;
    }

    beforeAll(async () => {
      runtime = await startTestRuntime({
        workers: true,
        env: {
          SPEECH_MODELS_DIR: sharedModelsDir,
          // Who spoke when is the subject here, not the words: the smallest English model.
          SPEECH_MODEL_EN: 'tiny.en-q8_0',
          SPEECH_WORKERS: '1',
          SPEECH_THREADS: '2',
          SPEECH_QUEUE_LIMIT: '4',
          STARTING_CREDIT_CENTS: '1000',
        },
      });
      recording = await readFile(twoSpeakers);
      alice = await newCaller();
      bob = await newCaller();
    }, 120_000);

    afterAll(() => runtime.close());

    it('POST /transcripts?diarize=true: speakers, turns, a speaker on every segment and word; text, SRT and VTT name them', async () => {
      const started = performance.now();
      const response = await transcribe(alice, '?language=en&diarize=true&speakers=2');
      const seconds = (performance.now() - started) / 1000;
      expect(response.statusCode, response.body).toBe(200);
      const transcript = transcriptSchema.parse(response.json());
      expectSpeakersConsistent(transcript);
      expect(transcript.speakers?.length).toBe(2);
      // Diarization costs nothing more: the seconds of audio, as without it.
      expect(transcript.billedSeconds).toBe(Math.ceil(transcript.duration));
      console.info(`diarized transcription of ${transcript.duration} s: ${seconds.toFixed(2)} s`);

      // Text and SRT of a diarized transcript: the job below downloads them (each format here would
      // transcribe the recording again).
      const vtt = await transcribe(alice, '?language=en&diarize=true&format=vtt&minSpeakers=2&maxSpeakers=3');
      expect(vtt.statusCode).toBe(200);
      const voiced = vtt.body.split('\n').filter((line) => line.startsWith('<v '));
      expect(voiced.length).toBeGreaterThan(2);
      expect(vtt.body).toContain('<v S1>');
      expect(vtt.body).toContain('<v S2>');
    });

    it('the OpenAI-compatible route answers diarized_json in OpenAI’s shape', async () => {
      const form = new FormData();
      form.append('file', new Blob([recording], { type: 'audio/wav' }), 'sample.wav');
      form.append('model', 'gpt-4o-transcribe-diarize');
      form.append('response_format', 'diarized_json');
      form.append('language', 'en');
      const request = new Request('http://localhost/', { method: 'POST', body: form });
      const response = await runtime.app.inject({
        method: 'POST',
        url: '/api/v1/audio/transcriptions',
        headers: { ...alice.headers, 'content-type': request.headers.get('content-type') ?? '' },
        payload: Buffer.from(await request.arrayBuffer()),
      });
      expect(response.statusCode, response.body).toBe(200);
      const body = openAiDiarizedTranscriptionSchema.strict().parse(response.json());
      expect(body.task).toBe('transcribe');
      expect(body.segments.length).toBeGreaterThan(1);
      expect(new Set(body.segments.map((segment) => segment.speaker))).toEqual(new Set(['S1', 'S2']));
      expect(body.segments.every((segment) => segment.type === 'transcript.text.segment')).toBe(true);
      expect(body.usage).toEqual({ type: 'duration', seconds: Math.ceil(body.duration) });
    });

    it('refuses contradictory or out-of-range speaker counts with 400 VALIDATION_FAILED, before any work', async () => {
      const cases: [string, string][] = [
        ['?speakers=2', 'need diarize=true'],
        ['?diarize=true&speakers=0', 'between 1 and 20'],
        ['?diarize=true&maxSpeakers=21', 'between 1 and 20'],
        ['?diarize=true&speakers=1.5', ''],
        ['?diarize=true&speakers=2&minSpeakers=1', 'not both'],
        ['?diarize=true&minSpeakers=4&maxSpeakers=2', 'not be more than maxSpeakers'],
        ['?diarize=maybe', ''],
      ];
      for (const [query, message] of cases) {
        const response = await transcribe(alice, query);
        expect(response.statusCode, query).toBe(400);
        const body = response.json<{ code: string; details?: { message: string }[] }>();
        expect(body.code, query).toBe('VALIDATION_FAILED');
        expect((body.details ?? []).map((detail) => detail.message).join(' | '), query).toContain(message);
      }
      const jobs = await runtime.app.inject({
        method: 'POST',
        url: '/api/v1/transcripts/jobs?minSpeakers=2',
        headers: { ...alice.headers, 'content-type': 'audio/wav' },
        payload: recording,
      });
      expect(jobs.statusCode).toBe(400);
      const upload = await runtime.app.inject({
        method: 'POST',
        url: '/api/v1/media/recordings',
        headers: alice.headers,
        payload: {
          fileName: 'x.wav',
          size: 10,
          type: 'audio/wav',
          languageCode: 'en',
          sha1: 'a'.repeat(40),
          diarize: true,
          speakers: 3,
          maxSpeakers: 4,
        },
      });
      expect(upload.statusCode).toBe(400);
      expect(upload.json<{ code: string }>().code).toBe('VALIDATION_FAILED');
    });

    it('headerless PCM is diarized too, on POST /transcripts and as a job that keeps its format', async () => {
      const scratch = createMediaScratch('verbatim-raw-pcm-diarize-');
      try {
        const raw = (encoding: 's16le' | 'f32le') =>
          readFile(
            scratch.ffmpeg(
              ['-i', twoSpeakers, '-ar', '16000', '-ac', '1', '-f', encoding],
              `two.${encoding}`,
            ),
          );
        const s16 = await raw('s16le');
        const direct = await transcribe(
          alice,
          '?language=en&diarize=true&speakers=2&encoding=s16le&sampleRate=16000',
          s16,
          'application/octet-stream',
        );
        expect(direct.statusCode, direct.body).toBe(200);
        const transcript = transcriptSchema.parse(direct.json());
        expectSpeakersConsistent(transcript);
        expect(transcript.duration).toBeCloseTo(s16.length / 2 / 16_000, 2);

        const job = (query: string, body: Buffer) =>
          transcribe(alice, `/jobs${query}`, body, 'application/octet-stream');
        const missing = await job('?language=en&encoding=s16le', s16);
        expect(missing.statusCode).toBe(400);
        expect(missing.json<{ details?: { path: string[] }[] }>().details?.[0]?.path).toEqual(['sampleRate']);

        const f32 = await raw('f32le');
        const created = await job('?language=en&diarize=true&encoding=f32le&sampleRate=16000', f32);
        expect(created.statusCode, created.body).toBe(202);
        const done = await jobWhenFinished(alice, transcriptJobSchema.parse(created.json()).id);
        expect(done.transcriptStatus, done.failureReason ?? '').toBe('done');
        expect(done.transcript?.duration).toBeCloseTo(f32.length / 4 / 16_000, 2);
        expectSpeakersConsistent(fileTranscriptSchema.parse(done.transcript));
        // The transcript page's player gets the samples as a WAV file (a player cannot play raw PCM).
        const signed = recordingAudioUrlSchema.parse(
          (
            await runtime.app.inject({
              method: 'POST',
              url: `/api/v1/files/third-party/${done.id}/audio-url`,
              headers: alice.headers,
            })
          ).json(),
        );
        const address = new URL(signed.url);
        const played = await runtime.app.inject({
          method: 'GET',
          url: `${address.pathname}${address.search}`,
        });
        expect(played.statusCode).toBe(200);
        expect(played.headers['content-type']).toBe('audio/wav');
        expect(played.rawPayload.length).toBe(44 + f32.length);
        expect(played.rawPayload.subarray(0, 4).toString('ascii')).toBe('RIFF');
        expect(played.rawPayload.readUInt16LE(20)).toBe(3);
        expect(played.rawPayload.subarray(44).equals(f32)).toBe(true);
        const tail = await runtime.app.inject({
          method: 'GET',
          url: `${address.pathname}${address.search}`,
          headers: { range: 'bytes=40-99' },
        });
        expect(tail.statusCode).toBe(206);
        expect(tail.headers['content-range']).toBe(`bytes 40-99/${44 + f32.length}`);
        expect(tail.rawPayload.subarray(4).equals(f32.subarray(0, 56))).toBe(true);

        // The same bytes without their format: the worker cannot read them, and says so.
        const unstated = await job('?language=en&fileName=unstated.raw', s16);
        expect(unstated.statusCode, unstated.body).toBe(202);
        const failed = await jobWhenFinished(alice, transcriptJobSchema.parse(unstated.json()).id);
        expect(failed.transcriptStatus).toBe('processing_failed');
        expect(failed.failureReason).toBe('Not an audio or video file');
      } finally {
        scratch.dispose();
      }
    });

    it('a diarized job: its transcript, renamed speakers in every download, an audio address that seeks; all the owner’s only', async () => {
      const created = await transcribe(alice, '/jobs?language=en&diarize=true&maxSpeakers=4');
      expect(created.statusCode, created.body).toBe(202);
      const fileId = transcriptJobSchema.parse(created.json()).id;
      const job = await jobWhenFinished(alice, fileId);
      expect(job.transcriptStatus, job.failureReason ?? '').toBe('done');
      const read = (caller: Caller) =>
        runtime.app.inject({
          method: 'GET',
          url: `/api/v1/files/third-party/${fileId}/transcript`,
          headers: caller.headers,
        });
      const first = await read(alice);
      expect(first.statusCode, first.body).toBe(200);
      const transcript = fileTranscriptSchema.parse(first.json());
      expectSpeakersConsistent(transcript);
      expect(transcript.id).toBe(fileId);
      expect(transcript.segments[0]?.words[0]?.confidence).toBeGreaterThan(0);
      expect((await read(bob)).statusCode).toBe(404);

      const rename = (caller: Caller, speakers: object[]) =>
        runtime.app.inject({
          method: 'PUT',
          url: `/api/v1/files/third-party/${fileId}/speakers`,
          headers: caller.headers,
          payload: { speakers },
        });
      expect((await rename(bob, [{ id: 'S1', name: 'Mallory' }])).statusCode).toBe(404);
      expect((await rename(alice, [{ id: 'S9', name: 'Nobody' }])).statusCode).toBe(400);
      expect((await rename(alice, [{ id: 'S1', name: '   ' }])).statusCode).toBe(400);
      const renamed = await rename(alice, [{ id: 'S1', name: 'Anna Lopez' }]);
      expect(renamed.statusCode, renamed.body).toBe(200);
      expect(renamed.json<{ speakers: unknown[] }>().speakers[0]).toEqual({ id: 'S1', name: 'Anna Lopez' });

      const download = (format: string) =>
        runtime.app.inject({
          method: 'GET',
          url: `/api/v1/transcripts/download?fileIds=${fileId}&format=${encodeURIComponent(format)}`,
          headers: alice.headers,
        });
      const vtt = await download('text/vtt');
      expect(vtt.body).toContain('<v Anna Lopez>');
      expect(vtt.body).not.toContain('<v S1>');
      expect(vtt.body).toContain('<v S2>');
      const paragraphs = (await download('text/plain')).body.trim().split('\n\n');
      expect(paragraphs.length).toBeGreaterThanOrEqual(2);
      // S1 is renamed everywhere; the others (S2, and any further speaker maxSpeakers allows) keep their ids.
      for (const paragraph of paragraphs) expect(paragraph).toMatch(/^(Anna Lopez|S[2-9]): \S/);
      expect(paragraphs.some((paragraph) => paragraph.startsWith('S2: '))).toBe(true);
      const cues = new srtParser().fromSrt((await download('application/x-subrip')).body);
      expect(cues.length).toBeGreaterThan(2);
      for (const cue of cues) expect(cue.text).toMatch(/^(Anna Lopez|S[2-9]): /);
      const json = fileTranscriptSchema
        .omit({ id: true, text: true })
        .parse(JSON.parse((await download('application/json')).body));
      expect(json.speakers?.[0]).toEqual({ id: 'S1', name: 'Anna Lopez' });
      expect(fileTranscriptSchema.parse((await read(alice)).json()).speakers?.[0]?.name).toBe('Anna Lopez');

      // The recording for the page's player: a signed address, whole or by range, for this file only.
      expect(
        (
          await runtime.app.inject({
            method: 'POST',
            url: `/api/v1/files/third-party/${fileId}/audio-url`,
            headers: bob.headers,
          })
        ).statusCode,
      ).toBe(404);
      const signed = recordingAudioUrlSchema.parse(
        (
          await runtime.app.inject({
            method: 'POST',
            url: `/api/v1/files/third-party/${fileId}/audio-url`,
            headers: alice.headers,
          })
        ).json(),
      );
      expect(Date.parse(signed.expiresAt)).toBeGreaterThan(Date.now());
      const address = new URL(signed.url);
      const whole = await runtime.app.inject({ method: 'GET', url: `${address.pathname}${address.search}` });
      expect(whole.statusCode).toBe(200);
      expect(whole.headers['accept-ranges']).toBe('bytes');
      expect(whole.headers['content-type']).toBe('audio/wav');
      expect(whole.rawPayload.equals(recording)).toBe(true);
      const part = await runtime.app.inject({
        method: 'GET',
        url: `${address.pathname}${address.search}`,
        headers: { range: 'bytes=1000-1999' },
      });
      expect(part.statusCode).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes 1000-1999/${recording.length}`);
      expect(part.rawPayload.equals(recording.subarray(1000, 2000))).toBe(true);
      const past = await runtime.app.inject({
        method: 'GET',
        url: `${address.pathname}${address.search}`,
        headers: { range: `bytes=${recording.length}-` },
      });
      expect(past.statusCode).toBe(416);
      // The signature is this file's and account's: another account or a changed expiry is refused.
      const forged = new URL(signed.url);
      forged.searchParams.set('account', bob.accountId);
      expect(
        (await runtime.app.inject({ method: 'GET', url: `${forged.pathname}${forged.search}` })).json(),
      ).toMatchObject({
        code: 'BAD_TOKEN',
      });
      const later = new URL(signed.url);
      later.searchParams.set('expires', String(Number(later.searchParams.get('expires')) + 3600));
      expect(
        (await runtime.app.inject({ method: 'GET', url: `${later.pathname}${later.search}` })).statusCode,
      ).toBe(400);
    });
  },
);

describe('diarize=true without the diarization models', { timeout: 120_000 }, () => {
  let runtime: TestRuntime;
  let folder: string;

  beforeAll(async () => {
    // Whisper alone: transcription works, diarization cannot.
    folder = await mkdtemp(path.join(tmpdir(), 'verbatim-no-diarization-'));
    await symlink(
      path.join(sharedModelsDir, 'ggml-tiny.en-q8_0.bin'),
      path.join(folder, 'ggml-tiny.en-q8_0.bin'),
    );
    runtime = await startTestRuntime({
      env: { SPEECH_MODELS_DIR: folder, SPEECH_MODEL: 'tiny.en-q8_0' },
    });
  }, 60_000);

  afterAll(async () => {
    await runtime.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('answers 503 SPEECH_UNAVAILABLE naming the download command, on every route, and charges nothing', async () => {
    const account = await createAccount(runtime);
    const headers = bearer(await signIn(runtime, account.email));
    const recording = await readFile(twoSpeakers);
    const refusals = [
      await runtime.app.inject({
        method: 'POST',
        url: '/api/v1/transcripts?diarize=true',
        headers: { ...headers, 'content-type': 'audio/wav' },
        payload: recording,
      }),
      await runtime.app.inject({
        method: 'POST',
        url: '/api/v1/transcripts/jobs?diarize=true',
        headers: { ...headers, 'content-type': 'audio/wav' },
        payload: recording,
      }),
      await runtime.app.inject({
        method: 'POST',
        url: '/api/v1/media/recordings',
        headers,
        payload: {
          fileName: 'meeting.wav',
          size: recording.length,
          type: 'audio/wav',
          languageCode: 'en',
          sha1: 'b'.repeat(40),
          diarize: true,
        },
      }),
    ];
    for (const response of refusals) {
      expect(response.statusCode, response.body).toBe(503);
      const body = response.json<{ code: string; message: string }>();
      expect(body.code).toBe('SPEECH_UNAVAILABLE');
      expect(body.message).toContain('verbatim models download');
    }
    // Without diarize the same recording is transcribed.
    const plain = await runtime.app.inject({
      method: 'POST',
      url: '/api/v1/transcripts?format=text',
      headers: { ...headers, 'content-type': 'audio/wav' },
      payload: recording,
    });
    expect(plain.statusCode, plain.body).toBe(200);
    expect(plain.body).not.toMatch(/^S1: /);
  });
});
