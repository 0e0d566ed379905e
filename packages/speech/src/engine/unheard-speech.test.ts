import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMediaScratch, type MediaScratch } from '../test-support/media-fixtures.js';
import { testdataFile } from '../test-support/paths.js';
import { startTestEngine } from '../test-support/test-engine.js';
import { normaliseForScoring } from '../test-support/wer.js';
import { SileroVad } from '../vad/silero-vad.js';
import { SpeechWindower } from '../vad/speech-windows.js';
import { decodeFile } from '../vad/test-audio.js';
import type { SpeechEngine } from './speech-engine.js';
import { UnheardSpeech } from './unheard-speech.js';

const chunk = (...values: number[]) => Float32Array.from(values);

describe('UnheardSpeech', () => {
  it('gives back the whole recording, in order, when nothing was heard in it', () => {
    const unheard = new UnheardSpeech(6);
    const reused = chunk(1, 2, 3);
    unheard.keep(reused);
    reused.fill(0);
    unheard.keep(chunk(4, 5, 6));
    expect(Array.from(unheard.take() ?? [])).toEqual([1, 2, 3, 4, 5, 6]);
    // Taken once: the memory is let go.
    expect(unheard.take()).toBeNull();
  });

  it('gives nothing once speech was heard, for a recording longer than one window, or for no audio', () => {
    const heard = new UnheardSpeech(6);
    heard.keep(chunk(1, 2));
    heard.heard();
    heard.keep(chunk(3));
    expect(heard.take()).toBeNull();

    const long = new UnheardSpeech(6);
    long.keep(chunk(1, 2, 3, 4));
    long.keep(chunk(5, 6, 7));
    long.keep(chunk(8));
    expect(long.take()).toBeNull();

    expect(new UnheardSpeech(6).take()).toBeNull();
  });
});

describe('a short recording in which voice activity detection hears nothing', { timeout: 180_000 }, () => {
  let engine: SpeechEngine;
  let scratch: MediaScratch;

  beforeAll(async () => {
    scratch = createMediaScratch('verbatim-unheard-');
    engine = await startTestEngine();
  });

  afterAll(async () => {
    await engine.close();
    scratch.dispose();
  });

  const wordsOf = async (file: string) =>
    normaliseForScoring(
      (await engine.transcribeFile(file, { language: 'en' })).segments
        .map((segment) => segment.text)
        .join(' '),
      'en',
    );

  it('is decoded whole: a sentence in falsetto, which Silero does not hear as speech, is transcribed', async () => {
    const falsetto = testdataFile('en/mfa-falsetto2.flac');
    const vad = await SileroVad.load();
    try {
      const windower = new SpeechWindower(vad.createStream());
      const windows = [...(await windower.push(await decodeFile(falsetto))), ...(await windower.finish())];
      expect(windows).toEqual([]);
      // Silero was unsure, not deaf: some frames rose above its silence level.
      expect(windower.heardPossibleSpeech).toBe(true);
    } finally {
      await vad.close();
    }
    // "i really don't know how people talk like this": its beginning and its end, whatever base
    // makes of the middle ("how people" came out as "how" or "if we'll").
    const words = (await wordsOf(falsetto)).join(' ');
    expect(words).toContain("really don't know");
    expect(words).toContain('talk like this');
  });

  it('still gives no words for silence, noise, hum or a tone', async () => {
    const sources = [
      'anullsrc=r=16000:cl=mono',
      'anoisesrc=r=16000:a=0.1:c=pink',
      'anoisesrc=r=16000:a=0.02:c=white',
      'sine=f=50:r=16000',
      'sine=f=440:r=16000',
    ];
    for (const [index, source] of sources.entries()) {
      const file = scratch.ffmpeg(['-f', 'lavfi', '-i', source, '-t', '6'], `unheard-${index}.wav`);
      expect(await wordsOf(file), source).toEqual([]);
    }
  });
});
