import { describe, expect, it } from 'vitest';
import type { NativeSegment } from '../recogniser/native-addon.js';
import {
  compressionRatio,
  hasRepetitionLoop,
  isNonSpeechSegment,
  looksLikeLoop,
  repeatsASentence,
  withoutSoundAnnotations,
} from './hallucination-guards.js';

function segment(text: string, noSpeechProbability = 0.01, averageLogProbability = -0.2): NativeSegment {
  return { start: 0, end: 1000, text, noSpeechProbability, averageLogProbability, words: [] };
}

describe("guards against Whisper's known failures", () => {
  it('sees a decoding loop, and not ordinary speech', () => {
    expect(hasRepetitionLoop('thank you thank you thank you thank you')).toBe(true);
    expect(hasRepetitionLoop('and then we went to the the the the shop')).toBe(true);
    expect(looksLikeLoop('I am here. '.repeat(12))).toBe(true);
    expect(compressionRatio('I am here. '.repeat(12))).toBeGreaterThan(2.4);
    const speech =
      'And so my fellow Americans, ask not what your country can do for you, ask what you can do for your country.';
    expect(looksLikeLoop(speech)).toBe(false);
    expect(hasRepetitionLoop('yes yes yes, we can')).toBe(false);
  });

  it('removes sound annotations but keeps words', () => {
    expect(withoutSoundAnnotations('[Music] Hello there (applause) ♪ la la ♪ friends *laughs*')).toBe(
      'Hello there friends',
    );
    expect(withoutSoundAnnotations('Price is 5 euros.')).toBe('Price is 5 euros.');
  });

  it('drops segments that are not speech, keeps a real "thank you"', () => {
    expect(isNonSpeechSegment(segment('[BLANK_AUDIO]'))).toBe(true);
    expect(isNonSpeechSegment(segment(' ... '))).toBe(true);
    expect(isNonSpeechSegment(segment('Hello', 0.9, -1.5))).toBe(true);
    expect(isNonSpeechSegment(segment('Thank you for watching!', 0.4, -0.9))).toBe(true);
    expect(isNonSpeechSegment(segment('Sous-titres réalisés par la communauté d’Amara.org', 0.5, -0.8))).toBe(
      true,
    );
    expect(isNonSpeechSegment(segment('Thank you.', 0.02, -0.1))).toBe(false);
    expect(isNonSpeechSegment(segment('Ask not what your country can do for you.'))).toBe(false);
  });

  it('sees a segment that says the one before it again, word for word', () => {
    const texts = (...values: string[]) => values.map((text) => ({ text }));
    expect(repeatsASentence(texts('Madame la Baronne Péthère', 'madame la baronne Pethere.'))).toBe(true);
    expect(repeatsASentence(texts('Hello.', 'I said: go now.', 'I said, go now!'))).toBe(true);
    // Two words may well be said twice; a different sentence is not a repeat.
    expect(repeatsASentence(texts('No way.', 'No way.'))).toBe(false);
    expect(repeatsASentence(texts('Madame la Baronne Péthère', 'Madame la Baronne est là'))).toBe(false);
    expect(repeatsASentence(texts('Go now, go now, go now.'))).toBe(false);
  });

  it('sees a segment that is one sentence said again, and not one that only begins as it ends', () => {
    const texts = (...values: string[]) => values.map((text) => ({ text }));
    expect(
      repeatsASentence(
        texts('I have a thousand thoughts about that thing, I have a thousand thoughts about that thing.'),
      ),
    ).toBe(true);
    expect(repeatsASentence(texts('Hello.', 'Wait for me. Wait for me. Wait for me.'))).toBe(true);
    expect(repeatsASentence(texts('Wait for me, wait for me, please.'))).toBe(false);
    expect(repeatsASentence(texts('Wait for me and I wait for you.'))).toBe(false);
  });
});
