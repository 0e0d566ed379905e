import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encoderContextFor, encoderContextMargin } from '../engine/window-recognition.js';
import { isSpeechError } from '../speech-error.js';
import { sharedModelsDir, testdataFile } from '../test-support/paths.js';
import {
  isPreempted,
  recognitionPriority,
  RecogniserPool,
  type RecognitionOutcome,
} from './recogniser-pool.js';

const baseModel = path.join(sharedModelsDir, 'ggml-base-q8_0.bin');

function pcmOf(relativePath: string): Float32Array {
  const bytes = execFileSync(
    'ffmpeg',
    [
      '-nostdin',
      '-loglevel',
      'error',
      '-i',
      testdataFile(relativePath),
      '-ac',
      '1',
      '-ar',
      '16000',
      '-f',
      'f32le',
      '-',
    ],
    {
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
}

async function failureOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!isSpeechError(error)) throw new Error(`expected a SpeechError, got ${String(error)}`);
  return error.code;
}

describe('RecogniserPool (real whisper.cpp in worker threads)', { timeout: 300_000 }, () => {
  let pool: RecogniserPool;
  let jfk: Float32Array;

  beforeAll(async () => {
    jfk = pcmOf('en/jfk-inaugural.flac');
    pool = new RecogniserPool({ workers: 1, threadsPerWorker: 2 });
    await pool.preload(baseModel);
  });

  afterAll(async () => {
    await pool.close();
  });

  it('recognises speech off the event loop, with segments, words, probabilities and the language', async () => {
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 10);
    const { result, milliseconds } = await pool.recognise({
      modelPath: baseModel,
      samples: jfk.slice(),
      options: { language: 'auto' },
    });
    clearInterval(timer);
    expect(result.language).toBe('en');
    expect(result.segments.map((segment) => segment.text).join(' ')).toMatch(
      /ask not what your country can do for you/i,
    );
    const words = result.segments.flatMap((segment) => segment.words);
    expect(words.map((word) => word.text)).toContain('fellow');
    expect(words.every((word) => word.probability > 0 && word.probability <= 1)).toBe(true);
    // The event loop kept running while whisper.cpp worked in its thread.
    expect(ticks).toBeGreaterThan(milliseconds / 10 / 4);
  });

  it('says how likely a segment is not speech, as Whisper computes it: high for silence, low for speech', async () => {
    // whisper.cpp read it from a row of logits it never wrote: ~0 whatever the audio (patched by
    // native/no-speech-probability.cmake).
    const options = { language: 'en', audioContext: 0, beamSize: 5 };
    const silent = await pool.recognise({
      modelPath: baseModel,
      samples: new Float32Array(16_000 * 5),
      options,
    });
    const speech = await pool.recognise({ modelPath: baseModel, samples: jfk.slice(), options });
    expect(silent.result.segments.length).toBeGreaterThan(0);
    for (const segment of silent.result.segments) expect(segment.noSpeechProbability).toBeGreaterThan(0.6);
    for (const segment of speech.result.segments) expect(segment.noSpeechProbability).toBeLessThan(0.2);
  });

  it('continues from a prefix: the words it gives of the audio the window begins with are not said again', async () => {
    // whisper.cpp has no prefix (native/decoder-prefix.cmake); a live phrase is decoded after the
    // phrase before it, whose words are already final.
    const options = { language: 'en', beamSize: 5 };
    const { result } = await pool.recognise({
      modelPath: baseModel,
      samples: jfk.slice(),
      options: { ...options, prefix: ' And so, my fellow Americans,', prefixEnd: 3.4 },
    });
    const text = result.segments.map((segment) => segment.text).join(' ');
    expect(text).toMatch(/^\s*ask not what your country can do for you/i);
    expect(text).not.toMatch(/fellow/i);
    // Its words are placed after the prefix's segment (0-3.4 s), and inside the 11 s of audio.
    expect(result.segments[0]?.words[0]?.start).toBeGreaterThanOrEqual(3400);
    expect(result.segments.at(-1)?.end).toBeLessThan(11_500);
    // The next job has no prefix: the whole sentence.
    const again = await pool.recognise({ modelPath: baseModel, samples: jfk.slice(), options });
    expect(again.result.segments.map((segment) => segment.text).join(' ')).toMatch(/my fellow Americans/i);
  });

  it('ends a beam search once five sequences have ended, not waiting for a beam that says the sentence again', async () => {
    // whisper.cpp stepped on until every beam had ended (native/beam-stop.cmake): with a prompt, one
    // beam said this 2 s clip's sentence twice, and being the longer it won ("… im Mund.
    // Morgenstunt hat Geut im Mund.").
    const clip = pcmOf('de/cv-de-17516930.mp3');
    const { result } = await pool.recognise({
      modelPath: baseModel,
      samples: clip,
      options: {
        language: 'de',
        beamSize: 5,
        // As a live final's window is fitted.
        audioContext: encoderContextFor(clip.length, encoderContextMargin),
        prompt: 'Schatzkarte gezeichnet wurde.',
        temperatureIncrement: 0,
      },
    });
    const text = result.segments.map((segment) => segment.text).join(' ');
    expect(text).toMatch(/Mund/);
    expect(text.match(/Mund/g)).toHaveLength(1);
  });

  it("lends idle recognisers' free cores to a live final alone, and to nothing else", async () => {
    let free = 2;
    const tinyModel = path.join(sharedModelsDir, 'ggml-tiny.en-q8_0.bin');
    const pair = new RecogniserPool({ workers: 2, threadsPerWorker: 1, freeCores: () => free });
    try {
      await pair.preload(tinyModel);
      const clip = jfk.subarray(0, 16_000 * 3);
      const recognise = (priority: number) =>
        pair.recognise({
          modelPath: tinyModel,
          samples: clip.slice(),
          options: { language: 'en' },
          priority,
        });
      // Alone, on a quiet machine: the final also gets the idle recogniser's core.
      expect((await recognise(recognitionPriority.liveFinal)).threads).toBe(2);
      // Partials and recordings keep their own thread.
      expect((await recognise(recognitionPriority.livePartial)).threads).toBe(1);
      expect((await recognise(recognitionPriority.batch)).threads).toBe(1);
      // With the other recogniser busy, nothing to lend.
      const both = await Promise.all([
        recognise(recognitionPriority.batch),
        recognise(recognitionPriority.liveFinal),
      ]);
      expect(both.map((outcome) => outcome.threads)).toEqual([1, 1]);
      expect(both.map((outcome) => outcome.shared)).toEqual([false, false]);
      // Work arriving while a final runs on a lent thread waits for it, rather than share its core.
      const finished: string[] = [];
      await Promise.all([
        pair
          .recognise({
            modelPath: tinyModel,
            samples: jfk.slice(),
            options: { language: 'en' },
            priority: recognitionPriority.liveFinal,
          })
          .then((outcome) => finished.push(`final on ${outcome.threads}`)),
        pair
          .recognise({
            modelPath: tinyModel,
            samples: jfk.slice(0, 16_000),
            options: { language: 'en' },
            priority: recognitionPriority.livePartial,
          })
          .then(() => finished.push('partial')),
      ]);
      expect(finished).toEqual(['final on 2', 'partial']);
      // Another program holds the other core: the final keeps its own thread.
      free = 1;
      expect((await recognise(recognitionPriority.liveFinal)).threads).toBe(1);
    } finally {
      await pair.close();
    }
  });

  it("applies a job's options for a shared recogniser only when other work holds a thread as it starts", async () => {
    const tinyModel = path.join(sharedModelsDir, 'ggml-tiny.en-q8_0.bin');
    // No core to lend: the second job runs beside the first instead of waiting for it.
    const pair = new RecogniserPool({ workers: 2, threadsPerWorker: 1, freeCores: () => 1 });
    try {
      await pair.preload(tinyModel);
      const clip = jfk.subarray(0, 16_000 * 6);
      const recognise = (whenShared?: { maxTokensPerSegment: number }) =>
        pair.recognise({
          modelPath: tinyModel,
          samples: clip.slice(),
          options: { language: 'en' },
          priority: recognitionPriority.liveFinal,
          ...(whenShared ? { whenShared } : {}),
        });
      const wordsOf = (outcome: RecognitionOutcome) =>
        outcome.result.segments.flatMap((segment) => segment.text.split(/\s+/).filter(Boolean)).length;
      const alone = await recognise({ maxTokensPerSegment: 2 });
      expect(alone.shared).toBe(false);
      expect(wordsOf(alone)).toBeGreaterThan(4);
      // The first takes a thread; the second starts while it runs.
      const [first, second] = await Promise.all([recognise(), recognise({ maxTokensPerSegment: 2 })]);
      expect(first.shared).toBe(false);
      expect(second.shared).toBe(true);
      expect(wordsOf(second)).toBeLessThanOrEqual(2);
      expect(wordsOf(first)).toBe(wordsOf(alone));
    } finally {
      await pair.close();
    }
  });

  it('gives a live final the core of the partial its stream has just cancelled', async () => {
    const tinyModel = path.join(sharedModelsDir, 'ggml-tiny.en-q8_0.bin');
    // Under a loaded test machine the partial's encoder may take seconds to reach its next stop.
    const pair = new RecogniserPool({
      workers: 2,
      threadsPerWorker: 1,
      freeCores: () => 2,
      stoppingThreadWaitMs: 60_000,
    });
    try {
      await pair.preload(tinyModel);
      const cancel = new AbortController();
      const partial = pair.recognise({
        modelPath: tinyModel,
        samples: jfk.slice(),
        options: { language: 'en' },
        priority: recognitionPriority.livePartial,
        signal: cancel.signal,
      });
      const partialOutcome = failureOf(partial);
      await new Promise((resolve) => setTimeout(resolve, 200));
      // The stream's sentence ends: it drops its partial and asks for the final at once.
      cancel.abort();
      const final = await pair.recognise({
        modelPath: tinyModel,
        samples: jfk.slice(0, 16_000 * 3),
        options: { language: 'en' },
        priority: recognitionPriority.liveFinal,
      });
      expect(await partialOutcome).toBe('CANCELLED');
      expect(final.threads).toBe(2);
      expect(final.result.segments.length).toBeGreaterThan(0);
    } finally {
      await pair.close();
    }
  });

  it('cancels a waiting job at once and a running one at its next step, then keeps working', async () => {
    const running = new AbortController();
    const waiting = new AbortController();
    const first = pool.recognise({
      modelPath: baseModel,
      samples: jfk.slice(),
      options: { language: 'en' },
      signal: running.signal,
    });
    const second = pool.recognise({
      modelPath: baseModel,
      samples: jfk.slice(),
      options: { language: 'en' },
      signal: waiting.signal,
    });
    waiting.abort();
    expect(await failureOf(second)).toBe('CANCELLED');
    expect(pool.load.waiting).toBe(0);
    running.abort();
    expect(await failureOf(first)).toBe('CANCELLED');
    const after = await pool.recognise({
      modelPath: baseModel,
      samples: jfk.slice(),
      options: { language: 'en', audioContext: 614 },
    });
    expect(after.result.segments.length).toBeGreaterThan(0);
  });

  it('stops a cancelled job inside the encoder, not after it', async () => {
    // The whole 30 s encoder context: most of this recognition's time is the encoder.
    const options = { language: 'en', audioContext: 1500 };
    const started = performance.now();
    await pool.recognise({ modelPath: baseModel, samples: jfk.slice(), options });
    const wholeRun = performance.now() - started;

    const cancel = new AbortController();
    const running = pool.recognise({
      modelPath: baseModel,
      samples: jfk.slice(),
      options,
      signal: cancel.signal,
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const cancelledAt = performance.now();
    cancel.abort();
    expect(await failureOf(running)).toBe('CANCELLED');
    // whisper.cpp alone looks at the flag only once the encoder is done (most of the run).
    expect(performance.now() - cancelledAt).toBeLessThan(wholeRun / 4);
  });

  it('runs live finals, then live partials, before windows of recordings waiting in line', async () => {
    const second = jfk.slice(0, 16_000 * 2);
    const finished: string[] = [];
    const submit = (name: string, priority?: number) =>
      pool
        .recognise({
          modelPath: baseModel,
          samples: second.slice(),
          options: { language: 'en', audioContext: 164 },
          ...(priority === undefined ? {} : { priority }),
        })
        .then(() => finished.push(name));
    // The one thread is busy with the first job; the others wait in line.
    await Promise.all([
      submit('running'),
      submit('recording 1'),
      submit('partial', recognitionPriority.livePartial),
      submit('recording 2', recognitionPriority.batch),
      submit('final', recognitionPriority.liveFinal),
    ]);
    expect(finished).toEqual(['running', 'final', 'partial', 'recording 1', 'recording 2']);
  });

  it('stops a running live partial when a live final needs the thread, and says so', async () => {
    const partial = pool.recognise({
      modelPath: baseModel,
      samples: jfk.slice(),
      options: { language: 'en' },
      priority: recognitionPriority.livePartial,
    });
    const partialOutcome = partial.then(
      () => 'finished',
      (error: unknown) => (isPreempted(error) ? 'preempted' : `failed: ${String(error)}`),
    );
    // The partial is on the thread (its 11 s take seconds): the final arrives.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const final = await pool.recognise({
      modelPath: baseModel,
      samples: jfk.slice(0, 16_000 * 3),
      options: { language: 'en', audioContext: 214 },
      priority: recognitionPriority.liveFinal,
    });
    expect(await partialOutcome).toBe('preempted');
    expect(final.result.segments.length).toBeGreaterThan(0);
    // A recording's window is never stopped for a final: it waits its turn.
    const windowOfRecording = pool.recognise({
      modelPath: baseModel,
      samples: jfk.slice(),
      options: { language: 'en' },
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await pool.recognise({
      modelPath: baseModel,
      samples: jfk.slice(0, 16_000 * 3),
      options: { language: 'en', audioContext: 214 },
      priority: recognitionPriority.liveFinal,
    });
    expect((await windowOfRecording).result.segments.length).toBeGreaterThan(0);
  });

  it('gives the same result for the same audio whatever the thread decoded before it', async () => {
    // A short window after a long one: a decoder state reused across calls carried the long
    // window's encoder output into the short window's decoding, and the words changed.
    const french = pcmOf('fr/fleurs-fr-002.ogg');
    const options = { language: 'fr', beamSize: 5, audioContext: 450 };
    const recognise = async (samples: Float32Array, overrides: Partial<typeof options> = {}) =>
      (
        await pool.recognise({
          modelPath: baseModel,
          samples: samples.slice(),
          options: { ...options, ...overrides },
        })
      ).result.segments;
    const first = await recognise(french);
    // The long window only has to leave its state behind: greedy is enough, and 3× cheaper.
    await recognise(pcmOf('fr/fleurs-fr-001.ogg'), { audioContext: 1500, beamSize: 1 });
    const again = await recognise(french);
    expect(again.map((segment) => segment.text)).toEqual(first.map((segment) => segment.text));
    expect(again.flatMap((segment) => segment.words)).toEqual(first.flatMap((segment) => segment.words));
  });

  it('fails a job clearly when its model cannot be loaded, and the next job still runs', async () => {
    const missing = pool.recognise({
      modelPath: path.join(sharedModelsDir, 'ggml-missing.bin'),
      samples: jfk.slice(),
      options: {},
    });
    expect(await failureOf(missing)).toBe('TRANSCRIPTION_FAILED');
    const after = await pool.recognise({
      modelPath: baseModel,
      samples: jfk.slice(0, 16000 * 4),
      options: { language: 'en' },
    });
    expect(after.result.language).toBe('en');
  });

  it('refuses work once closed', async () => {
    const closing = new RecogniserPool({ workers: 1, threadsPerWorker: 1 });
    await closing.close();
    expect(
      await failureOf(closing.recognise({ modelPath: baseModel, samples: jfk.slice(), options: {} })),
    ).toBe('SPEECH_UNAVAILABLE');
  });
});
