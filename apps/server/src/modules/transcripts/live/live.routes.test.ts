import { liveTranscriptLines, type Usage } from '@verbatim/contracts';
import {
  decodedRecording,
  readManifest,
  sharedModelsDir,
  testdataFile,
  wordErrorRate,
} from '@verbatim/speech/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../../lib/ids.js';
import { openLive } from '../../../test-support/live-socket.js';
import { bearer, createAccount, signIn } from '../../../test-support/sign-in.js';
import { startTestRuntime, type TestRuntime } from '../../../test-support/test-runtime.js';
import { waitFor } from '../../../test-support/wait.js';

function decoded(relativePath: string): Promise<Float32Array> {
  return decodedRecording(testdataFile(relativePath));
}

/** Sends samples in frames of `frame`, `speed` times faster than real time (Infinity: at once). */
async function sendAudio(socket: WebSocket, samples: Float32Array, frame: number, speed = 1): Promise<void> {
  const started = performance.now();
  for (let at = 0; at < samples.length; at += frame) {
    if (socket.readyState !== WebSocket.OPEN) return;
    socket.send(samples.slice(at, at + frame));
    const due = (at + frame) / 16 / speed - (performance.now() - started);
    if (due > 0) await new Promise((resolve) => setTimeout(resolve, due));
  }
}

// Real recognition on two shared cores.
describe('GET /transcripts/streaming (live socket, real models, real speech)', { timeout: 240_000 }, () => {
  let runtime: TestRuntime;
  let base: string;
  let jfk: Float32Array;
  let captain: Float32Array;
  let reading: Float32Array;
  let runtimeClosed = false;
  const captainReference = 'CAPTAIN FRERE SAYS THAT THE SCENERY IS DELIGHTFUL';
  // 11.7 s of continuous reading: several partials before the pause at its end.
  const readingPath = 'en/ls-dev-clean-2412-153948-0000.flac';
  const readingReference = readManifest().find((entry) => entry.path === readingPath)?.referenceText ?? '';

  async function newCaller() {
    const account = await createAccount(runtime);
    const tokens = await signIn(runtime, account.email);
    return { account, token: tokens.access_token, headers: bearer(tokens) };
  }

  async function usage(headers: Record<string, string>, name: Usage['name']): Promise<Usage> {
    const response = await runtime.app.inject({ method: 'GET', url: '/api/v1/limiter/usages', headers });
    const line = response.json<Usage[]>().find((entry) => entry.name === name);
    if (!line) throw new Error(`no ${name} usage line`);
    return line;
  }

  function url(query: Record<string, string>): string {
    return `${base}/api/v1/transcripts/streaming?${new URLSearchParams(query).toString()}`;
  }

  beforeAll(async () => {
    runtime = await startTestRuntime({
      env: {
        SPEECH_MODELS_DIR: sharedModelsDir,
        SPEECH_WORKERS: '2',
        SPEECH_THREADS: '1',
        LIVE_IDLE_TIMEOUT_SECONDS: '2',
        LIVE_METERING_SLICE_SECONDS: '2',
        // Every test signs in from loopback.
        RATE_LIMIT_MAX: '10000',
      },
    });
    const address = await runtime.app.listen({ host: '127.0.0.1', port: 0 });
    base = address.replace(/^http/, 'ws');
    [jfk, captain, reading] = await Promise.all([
      decoded('en/jfk-inaugural.flac'),
      decoded('en/ls-dev-clean-3752-4944-0000.flac'),
      decoded(readingPath),
    ]);
    // Loads the English model in both recogniser threads, so that the first test does not wait for it.
    const account = await createAccount(runtime);
    const token = (await signIn(runtime, account.email)).access_token;
    await Promise.all(
      [0, 1].map(async () => {
        const warmUp = openLive(url({ accessToken: token, languageCode: 'en' }));
        await warmUp.connected;
        warmUp.socket.send(captain);
        warmUp.socket.send('Done');
        await warmUp.closed;
      }),
    );
  }, 120_000);

  afterAll(async () => {
    // The last test closes the runtime itself.
    if (!runtimeClosed) await runtime?.close();
  });

  it('streams partials, then finals matching the reference; ids replace or append; Done flushes and closes with 1000; charged as streaming', async () => {
    const alice = await newCaller();
    const live = openLive(url({ accessToken: alice.token, languageCode: 'en' }));
    await live.connected;
    expect(live.messages[0]).toEqual({ type: 'connected' });
    // The console's microphone frames: 2048 samples, in real time.
    await sendAudio(live.socket, reading, 2048);
    const partialsBeforeDone = live.messages.filter((message) => message.type === 'partial').length;
    live.socket.send('Done');
    const closed = await live.closed;
    expect(closed.code).toBe(1000);
    expect(partialsBeforeDone).toBeGreaterThan(2);
    const segments = live.messages.filter((message) => message.type !== 'connected');
    // Ids: each message's id is the last one's (replace) or the next (append); every segment ends final.
    let lastId = -1;
    for (const message of segments) {
      expect([lastId, lastId + 1]).toContain(message.segment);
      lastId = message.segment;
    }
    for (const id of new Set(segments.map((message) => message.segment))) {
      expect(segments.filter((message) => message.segment === id).at(-1)?.type).toBe('final');
    }
    const text = liveTranscriptLines(live.messages).join('\n');
    expect(wordErrorRate(readingReference, text, 'en').wer).toBeLessThan(0.15);
    await waitFor(
      async () => (await usage(alice.headers, 'ws_streaming')).seconds >= 11,
      'the streamed seconds charged',
    );
    const charged = await usage(alice.headers, 'ws_streaming');
    // 11.66 s of audio in 2 s slices, each started second charged: 12 s.
    expect(charged.seconds).toBe(12);
    expect((await usage(alice.headers, 'ws_prerecorded')).seconds).toBe(0);
  });

  it('an API key in x-api-key, 16-bit 48 kHz audio resampled, source=file at the pre-recorded price; two users never mix', async () => {
    const alice = await newCaller();
    const bob = await newCaller();
    const created = await runtime.app.inject({
      method: 'POST',
      url: '/api/v1/auth/api-keys',
      headers: bob.headers,
    });
    const apiKey = created.json<{ apiKey: string }>().apiKey;
    // Bob's recording at 48 kHz, 16-bit: each sample three times (then the server low-passes).
    const pcm = Buffer.alloc(captain.length * 3 * 2);
    captain.forEach((sample, index) => {
      const value = Math.max(-32768, Math.min(32767, Math.round(sample * 32767)));
      for (let k = 0; k < 3; k += 1) pcm.writeInt16LE(value, (index * 3 + k) * 2);
    });
    const bobLive = openLive(
      url({ languageCode: 'en', encoding: 's16le', sampleRate: '48000', source: 'file' }),
      {
        headers: { 'x-api-key': apiKey },
      },
    );
    const aliceLive = openLive(url({ accessToken: alice.token, languageCode: 'en' }));
    await Promise.all([bobLive.connected, aliceLive.connected]);
    // A file is sent as fast as the socket takes it.
    for (let at = 0; at < pcm.length; at += 16_000) bobLive.socket.send(pcm.subarray(at, at + 16_000));
    bobLive.socket.send('Done');
    await sendAudio(aliceLive.socket, jfk.subarray(0, 16_000 * 6), 8000, 2);
    aliceLive.socket.send('Done');
    const [bobClosed, aliceClosed] = await Promise.all([bobLive.closed, aliceLive.closed]);
    expect(bobClosed.code).toBe(1000);
    expect(aliceClosed.code).toBe(1000);
    const bobText = liveTranscriptLines(bobLive.messages).join(' ');
    const aliceText = liveTranscriptLines(aliceLive.messages).join(' ');
    expect(wordErrorRate(captainReference, bobText, 'en').wer).toBeLessThan(0.2);
    expect(bobText.toLowerCase()).not.toMatch(/fellow|americans/);
    expect(aliceText.toLowerCase()).toMatch(/fellow americans/);
    expect(aliceText.toLowerCase()).not.toMatch(/captain|scenery/);
    await waitFor(
      async () => (await usage(bob.headers, 'ws_prerecorded')).seconds >= 3,
      'the pre-recorded seconds charged',
    );
    expect((await usage(bob.headers, 'ws_prerecorded')).seconds).toBeLessThanOrEqual(5);
    expect((await usage(bob.headers, 'ws_streaming')).seconds).toBe(0);
    expect((await usage(alice.headers, 'ws_prerecorded')).seconds).toBe(0);
  });

  it('closes with 4401 for bad credentials, 4400 for bad parameters and frames, 1009 for a frame over 1 MiB', async () => {
    const alice = await newCaller();
    const cases: {
      query: Record<string, string>;
      send?: (socket: WebSocket) => void;
      code: number;
      errorCode: string;
    }[] = [
      { query: { accessToken: 'not-a-token', languageCode: 'en' }, code: 4401, errorCode: 'UNAUTHENTICATED' },
      { query: { languageCode: 'en' }, code: 4401, errorCode: 'UNAUTHENTICATED' },
      {
        query: { accessToken: 'vbt_0000000000000000000000000000', languageCode: 'en' },
        code: 4401,
        errorCode: 'UNAUTHENTICATED',
      },
      {
        query: { accessToken: alice.token, languageCode: 'tlh' },
        code: 4400,
        errorCode: 'UNSUPPORTED_LANGUAGE',
      },
      {
        query: { accessToken: alice.token, languageCode: 'en', encoding: 'mp3' },
        code: 4400,
        errorCode: 'VALIDATION_FAILED',
      },
      {
        query: { accessToken: alice.token, languageCode: 'en', sampleRate: '12' },
        code: 4400,
        errorCode: 'VALIDATION_FAILED',
      },
      {
        query: { accessToken: alice.token, languageCode: 'en' },
        send: (socket) => socket.send(new Uint8Array(6)),
        code: 4400,
        errorCode: 'BAD_REQUEST',
      },
      {
        query: { accessToken: alice.token, languageCode: 'en' },
        send: (socket) => socket.send('Hello'),
        code: 4400,
        errorCode: 'BAD_REQUEST',
      },
    ];
    for (const testCase of cases) {
      const live = openLive(url(testCase.query));
      if (testCase.send) {
        await live.connected;
        testCase.send(live.socket);
      }
      const closed = await live.closed;
      expect({ query: testCase.query, code: closed.code }).toEqual({
        query: testCase.query,
        code: testCase.code,
      });
      expect(JSON.parse(closed.reason)).toMatchObject({ code: testCase.errorCode });
      expect(Buffer.byteLength(closed.reason)).toBeLessThanOrEqual(123);
    }
    const tooBig = openLive(url({ accessToken: alice.token, languageCode: 'en' }));
    await tooBig.connected;
    tooBig.socket.send(new Float32Array((1024 * 1024) / 4 + 1));
    expect((await tooBig.closed).code).toBe(1009);
  });

  it('closes with 4408 after the idle time without audio, and a vanished client frees its recogniser at once', async () => {
    const alice = await newCaller();
    const idle = openLive(url({ accessToken: alice.token, languageCode: 'en' }));
    await idle.connected;
    const idleClosed = await idle.closed;
    expect(idleClosed.code).toBe(4408);

    const vanishing = openLive(url({ accessToken: alice.token, languageCode: 'en' }));
    await vanishing.connected;
    // Speech at 4× real time, so that a recognition is running when the client disappears.
    await sendAudio(vanishing.socket, jfk.subarray(0, 16_000 * 8), 8000, 4);
    await waitFor(() => runtime.services.transcription.speech.status().busy > 0, 'a recognition running');
    vanishing.socket.close();
    const left = performance.now();
    await waitFor(
      () => runtime.services.live.sessions === 0 && runtime.services.transcription.speech.status().busy === 0,
      'the session and its recogniser freed',
      5_000,
    );
    // Freed within a fraction of a recognition, not after it.
    expect(performance.now() - left).toBeLessThan(1500);
  });

  it('stops at the balance: 4402 after the final text, charged no more than the balance allowed', async () => {
    // 1 cent left of the starting credit buys 120 s of streaming; spend all but ~10 s of it.
    const poor = await newCaller();
    const startingCents = runtime.config.accounts.startingCreditCents;
    await runtime.services.credits.charge({
      accountId: poor.account.id,
      apiKeyId: null,
      product: 'http_api',
      // $0.10/h: the starting credit less 1 cent, in seconds, then 110 s of the 120 s that cent buys at $0.30/h.
      seconds: ((startingCents - 1) * 36_000) / 100,
      reference: `test:${newId('x')}`,
    });
    await runtime.services.credits.charge({
      accountId: poor.account.id,
      apiKeyId: null,
      product: 'ws_streaming',
      seconds: 110,
      reference: `test:${newId('x')}`,
    });
    const before = (await usage(poor.headers, 'ws_streaming')).seconds;
    const live = openLive(url({ accessToken: poor.token, languageCode: 'en' }));
    await live.connected;
    await sendAudio(live.socket, jfk, 4096, 2);
    const closed = await live.closed;
    expect(closed.code).toBe(4402);
    expect(JSON.parse(closed.reason)).toMatchObject({ code: 'INSUFFICIENT_CREDIT' });
    // The text heard before the refusal was made final and sent.
    expect(live.messages.at(-1)?.type).toBe('final');
    const streamed = (await usage(poor.headers, 'ws_streaming')).seconds - before;
    // ~10 s could be paid: 4 slices of 2 s; the fifth was refused and the session stopped.
    expect(streamed).toBeGreaterThanOrEqual(6);
    expect(streamed).toBeLessThanOrEqual(10);

    // Without credit at all: refused before `connected`.
    const broke = openLive(url({ accessToken: poor.token, languageCode: 'en' }));
    expect((await broke.closed).code).toBe(4402);
    expect(broke.messages).toEqual([]);
  });

  it('at shutdown, flushes the final text and closes with 1012', async () => {
    const alice = await newCaller();
    const live = openLive(url({ accessToken: alice.token, languageCode: 'en' }));
    await live.connected;
    await sendAudio(live.socket, captain, 4096, 1);
    runtimeClosed = true;
    const closing = runtime.close();
    const closed = await live.closed;
    await closing;
    expect(closed.code).toBe(1012);
    const text = liveTranscriptLines(live.messages).join(' ');
    expect(live.messages.at(-1)?.type).toBe('final');
    expect(wordErrorRate(captainReference, text, 'en').wer).toBeLessThan(0.25);
  });
});
