import { describe, expect, it } from 'vitest';
import type { Recogniser, RecognitionRequest } from '../recogniser/recogniser-pool.js';
import { MAX_WINDOW_SECONDS } from '../vad/speech-windows.js';
import {
  encoderContextFor,
  maxTokensFor,
  recogniseWindow,
  repeatRetryEncoderContext,
  type WindowRequest,
} from './window-recognition.js';

describe('encoderContextFor', () => {
  it('covers the audio and its margin in whole steps of 16 frames', () => {
    // 5 s = 250 frames, + 128 = 378, rounded up to 384.
    expect(encoderContextFor(5 * 16_000, 128)).toBe(384);
    // 2.01 s = 101 frames (a partial frame counts), + 64 = 165, rounded up to 176.
    expect(encoderContextFor(2.01 * 16_000, 64)).toBe(176);
    expect(encoderContextFor(4 * 16_000, 64)).toBe(272);
  });

  it('gives at least the minimum asked for, in whole steps of 16 frames', () => {
    expect(encoderContextFor(2 * 16_000, 128, 500)).toBe(512);
    // 12 s = 600 frames, + 128: already above the minimum.
    expect(encoderContextFor(12 * 16_000, 128, 512)).toBe(736);
  });

  it('never asks for more than 1488 frames, the multiple of 16 nearest the model’s 30 s', () => {
    expect(encoderContextFor(27 * 16_000, 128)).toBe(1488);
    expect(encoderContextFor(29.5 * 16_000, 128)).toBe(1488);
    expect(encoderContextFor(30 * 16_000, 128, 1500)).toBe(1488);
  });

  it('holds the longest window the windower cuts, whole', () => {
    // MAX_WINDOW_SECONDS and the encoder's limit are kept apart: a longer window would lose its end.
    const longest = MAX_WINDOW_SECONDS * 16_000;
    expect(encoderContextFor(longest, 0)).toBeGreaterThanOrEqual(Math.ceil(MAX_WINDOW_SECONDS * 50));
  });
});

describe('maxTokensFor', () => {
  it('lets a segment hold about twice (partial) or three times (final) what speech can hold', () => {
    expect(maxTokensFor(1.4, true)).toBe(28);
    expect(maxTokensFor(1.4, false)).toBe(41);
    // A 20 s final may hold 264 tokens: more than whisper.cpp's own limit of 220.
    expect(maxTokensFor(20, false)).toBe(264);
  });
});

describe('a window whose decode says its sentence twice', () => {
  const sentence = 'When water is cast, avoid wasting it.';
  const segment = (text: string, start: number, end: number) => ({
    start,
    end,
    text,
    noSpeechProbability: 0,
    averageLogProbability: -0.2,
    words: text.split(' ').map((word, index) => ({
      start: start + index * 100,
      end: start + (index + 1) * 100,
      text: word,
      probability: 0.9,
    })),
  });

  /** Gives the answers in turn (the last one again when they run out) and keeps the requests. */
  function scriptedRecogniser(answers: string[][]): {
    recogniser: Recogniser;
    requests: RecognitionRequest[];
  } {
    const requests: RecognitionRequest[] = [];
    const recogniser: Recogniser = {
      recognise(request) {
        const texts = answers[Math.min(requests.length, answers.length - 1)] ?? [];
        requests.push(request);
        const segments = texts.map((text, index) => segment(text, index * 2000, (index + 1) * 2000));
        return Promise.resolve({
          result: { language: 'en', segments, aborted: false },
          milliseconds: 5,
          threads: 1,
          shared: false,
        });
      },
    };
    return { recogniser, requests };
  }

  const choices = { beamSize: 5, beamSizeOtherLanguages: 5, fitEncoderContext: true };
  const window = (live?: WindowRequest['live']): WindowRequest => ({
    modelPath: 'base.bin',
    start: 0,
    samples: new Float32Array(4 * 16_000),
    language: 'en',
    prompt: '',
    previousText: '',
    ...(live ? { live } : {}),
  });
  const fitted = encoderContextFor(4 * 16_000, 128);

  it('is decoded again with at least 10 s of context, and that decode is kept', async () => {
    const { recogniser, requests } = scriptedRecogniser([
      [sentence, 'When water is cast, avoid wasting it!'],
      [sentence],
    ]);
    const result = await recogniseWindow(recogniser, window(), choices);
    expect(requests.map((request) => request.options.audioContext)).toEqual([
      fitted,
      repeatRetryEncoderContext,
    ]);
    expect(fitted).toBeLessThan(repeatRetryEncoderContext);
    expect(result.segments.map((item) => item.text)).toEqual([sentence]);
  });

  it('keeps the sentence twice when the second decode hears it twice too', async () => {
    const { recogniser, requests } = scriptedRecogniser([[sentence, sentence]]);
    const result = await recogniseWindow(recogniser, window(), choices);
    expect(requests).toHaveLength(2);
    expect(result.segments.map((item) => item.text)).toEqual([sentence, sentence]);
  });

  it('is decoded once when nothing repeats, when the context is whisper.cpp’s own, and as a partial', async () => {
    const once = scriptedRecogniser([[sentence, 'Then go home.']]);
    await recogniseWindow(once.recogniser, window(), choices);
    expect(once.requests).toHaveLength(1);
    const full = scriptedRecogniser([[sentence, sentence]]);
    await recogniseWindow(full.recogniser, window(), { ...choices, fitEncoderContext: false });
    expect(full.requests.map((request) => request.options.audioContext)).toEqual([0]);
    const partial = scriptedRecogniser([[sentence, sentence]]);
    await recogniseWindow(partial.recogniser, window('partial'), choices);
    expect(partial.requests).toHaveLength(1);
  });

  it('decodes a live final that repeats a sentence again, as a window', async () => {
    const { recogniser, requests } = scriptedRecogniser([[sentence, sentence], [sentence]]);
    const result = await recogniseWindow(recogniser, window('final'), choices);
    expect(requests.map((request) => request.options.audioContext)).toEqual([
      fitted,
      repeatRetryEncoderContext,
    ]);
    expect(result.segments.map((item) => item.text)).toEqual([sentence]);
  });

  it('asks for one greedy pass of a live final if the recogniser is shared, of nothing else', async () => {
    const whenShared = async (live?: WindowRequest['live']) => {
      const scripted = scriptedRecogniser([[sentence]]);
      await recogniseWindow(scripted.recogniser, window(live), choices);
      return scripted.requests.map((request) => request.whenShared);
    };
    expect(await whenShared('final')).toEqual([{ beamSize: 1 }]);
    expect(await whenShared('partial')).toEqual([undefined]);
    expect(await whenShared()).toEqual([undefined]);
  });
});
