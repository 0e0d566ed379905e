import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSpeechError } from '../speech-error.js';
import { decodedRecording, sharedModelsDir, testdataFile } from '../test-support/index.js';
import { embeddingModelName, segmentationModelName } from './diarization-models.js';
import { openSpeakerDiarizer, type SpeakerDiarizer, type SpeakerTurn } from './speaker-diarizer.js';

const speakersOf = (turns: readonly SpeakerTurn[]): number => new Set(turns.map((turn) => turn.speaker)).size;

/** Real recordings of ../shared/testdata/diarization, cut short to keep the tests fast. */
async function recording(name: string, seconds: number): Promise<Float32Array> {
  return (await decodedRecording(testdataFile(`diarization/${name}.wav`))).slice(0, seconds * 16_000);
}

describe('openSpeakerDiarizer with the real networks', () => {
  let diarizer: SpeakerDiarizer;
  beforeAll(async () => {
    diarizer = await openSpeakerDiarizer(sharedModelsDir);
  });
  afterAll(async () => {
    await diarizer.close();
  });

  it('finds the two speakers of a conversation, turn by turn, in order of appearance', async () => {
    // pyannote's sample: speaker90 from 6.7 s, speaker91 from 7.55 s, in turns until 18 s.
    const turns = await diarizer.diarize(await recording('pyannote-sample', 18));
    expect(speakersOf(turns)).toBe(2);
    expect(turns[0]?.speaker).toBe(0);
    const speakerAt = (second: number) =>
      turns.filter((turn) => turn.start <= second && turn.end >= second).map((turn) => turn.speaker);
    // speaker90 alone at 12 s, speaker91 alone at 16 s: different speakers.
    expect(speakerAt(12)).toHaveLength(1);
    expect(speakerAt(16)).toHaveLength(1);
    expect(speakerAt(12)[0]).not.toBe(speakerAt(16)[0]);
    for (const turn of turns) expect(turn.end).toBeGreaterThan(turn.start);
  });

  it('leaves the event loop free while the networks run', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    try {
      await diarizer.diarize(await recording('pyannote-sample', 10));
    } finally {
      clearInterval(timer);
    }
    expect(ticks).toBeGreaterThan(5);
  });

  it('finds three speakers by itself, and honours speakers=N and maxSpeakers', async () => {
    // Picovoice's clip: three people, one turn each (1.7–3.7, 6.0–11.1, 12.8–18.0 s).
    const samples = await recording('picovoice-falcon-test', 19);
    const found = await diarizer.diarize(samples);
    expect(speakersOf(found)).toBe(3);
    expect(speakersOf(await diarizer.diarize(samples, { speakers: 2 }))).toBe(2);
    expect(speakersOf(await diarizer.diarize(samples, { maxSpeakers: 2 }))).toBe(2);
  });

  it('answers no turns for silence and refuses impossible speaker counts', async () => {
    expect(await diarizer.diarize(new Float32Array(16_000 * 3))).toEqual([]);
    await expect(diarizer.diarize(new Float32Array(16_000), { speakers: 0 })).rejects.toThrow(RangeError);
    await expect(
      diarizer.diarize(new Float32Array(16_000), { minSpeakers: 3, maxSpeakers: 2 }),
    ).rejects.toThrow(RangeError);
  });

  it('stops when cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      diarizer.diarize(new Float32Array(16_000 * 30), { signal: controller.signal }),
    ).rejects.toMatchObject({
      code: 'CANCELLED',
    });
  });
});

describe('openSpeakerDiarizer without usable networks', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'verbatim-diarization-'));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('names the command that downloads what is missing', async () => {
    const error: unknown = await openSpeakerDiarizer(folder).catch((caught: unknown) => caught);
    expect(isSpeechError(error) && error.code).toBe('SPEECH_UNAVAILABLE');
    expect((error as Error).message).toContain(
      `verbatim models download ${segmentationModelName} ${embeddingModelName}`,
    );
    await copyFile(
      path.join(sharedModelsDir, `${segmentationModelName}.onnx`),
      path.join(folder, `${segmentationModelName}.onnx`),
    );
    await expect(openSpeakerDiarizer(folder)).rejects.toThrow(
      `verbatim models download ${embeddingModelName}`,
    );
  });

  it('refuses a truncated network with INVALID_MODEL instead of crashing', async () => {
    const whole = await readFile(path.join(sharedModelsDir, `${embeddingModelName}.onnx`));
    await writeFile(path.join(folder, `${embeddingModelName}.onnx`), whole.subarray(0, whole.length / 2));
    await expect(openSpeakerDiarizer(folder)).rejects.toMatchObject({ code: 'INVALID_MODEL' });
  });
});
