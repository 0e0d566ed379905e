import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMediaScratch, type MediaScratch } from '../test-support/media-fixtures.js';
import { startTestEngine } from '../test-support/test-engine.js';
import { normaliseForScoring } from '../test-support/wer.js';
import { SileroVad, VAD_SAMPLE_RATE } from './silero-vad.js';
import { SpeechDetector } from './speech-detector.js';
import { SpeechWindower, type SpeechWindow } from './speech-windows.js';
import { chunksOf, decodeFile, testdata } from './test-audio.js';

// "Il récompense annuellement le meilleur lanceur de relève de la ligue nationale.": cut 2.72 s in,
// inside "lanceur de relève", the clip starts mid-sentence with no silence before its first words.
const source = 'fr/picovoice-cheetah-test-fr-a.wav';
const cutSeconds = 2.72;

describe('a recording that starts in the middle of a word', { timeout: 180_000 }, () => {
  let scratch: MediaScratch;
  let vad: SileroVad;
  let clipPath: string;
  let clip: Float32Array;

  beforeAll(async () => {
    scratch = createMediaScratch('verbatim-first-words-');
    clipPath = scratch.ffmpeg(
      ['-ss', String(cutSeconds), '-i', testdata(source), '-ac', '1', '-ar', '16000'],
      'mid-word.wav',
    );
    clip = await decodeFile(clipPath);
    vad = await SileroVad.load();
  });

  afterAll(async () => {
    await vad.close();
    scratch.dispose();
  });

  async function windowsOf(chunkSamples: number): Promise<SpeechWindow[]> {
    const windower = new SpeechWindower(vad.createStream());
    const windows: SpeechWindow[] = [];
    for (const chunk of chunksOf(clip, chunkSamples)) windows.push(...(await windower.push(chunk)));
    windows.push(...(await windower.finish()));
    return windows;
  }

  it('keeps the audio before the late voice onset in the first window, whatever the chunk size', async () => {
    // The cause: from an empty state, Silero hears the first words as speech only some way in.
    const stream = vad.createStream();
    const detector = new SpeechDetector();
    const probabilities = await stream.probabilities(clip);
    const regions = [...detector.push(probabilities), ...detector.flush(clip.length, await stream.flush())];
    expect((regions[0]?.startSample ?? 0) / VAD_SAMPLE_RATE).toBeGreaterThan(0.25);

    const windows = await windowsOf(clip.length);
    expect(windows[0]?.start).toBe(0);
    expect(windows[0]?.speechRegions[0]?.start).toBe(0);
    expect(windows[0]?.samples.length).toBe(Math.round((windows[0]?.end ?? 0) * VAD_SAMPLE_RATE));
    for (const size of [512, 1600, 16_000]) expect(await windowsOf(size)).toEqual(windows);
  });

  it('transcribes its first words', async () => {
    const engine = await startTestEngine();
    try {
      const transcript = await engine.transcribeFile(clipPath, { language: 'fr' });
      const words = normaliseForScoring(transcript.segments.map((segment) => segment.text).join(' '), 'fr');
      // Starting the window at the onset Silero found, whisper heard "Le Dev-dra-Ligue national."
      expect(words.join(' '), words.join(' ')).toContain('de la ligue nationale');
      expect(transcript.segments[0]?.start).toBeLessThan(0.3);
    } finally {
      await engine.close();
    }
  });
});
