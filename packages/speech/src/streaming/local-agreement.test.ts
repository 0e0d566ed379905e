import { describe, expect, it } from 'vitest';
import {
  agreedPrefixLength,
  continueSettled,
  settleAgreed,
  withoutRepeatedLead,
  withoutSqueezedRepeat,
  wordsBeforePause,
  type TimedWord,
} from './local-agreement.js';

function words(text: string, start = 0): TimedWord[] {
  return text
    .split(' ')
    .map((word, index) => ({ text: word, start: start + index * 0.4, end: start + index * 0.4 + 0.3 }));
}

describe('local agreement', () => {
  it('agrees on leading words whatever their case and punctuation', () => {
    expect(agreedPrefixLength(words('And so, my fellow'), words('and so my fellow Americans.'))).toBe(4);
    expect(agreedPrefixLength(words('ask not'), words('as not'))).toBe(0);
  });

  it('settles what two successive decodes agree on, never the last word of a decode', () => {
    const first = words('and so my fellow');
    expect(settleAgreed([], undefined, first)).toEqual([]);
    const second = words('and so my fellow Americans');
    expect(settleAgreed([], first, second).map((word) => word.text)).toEqual(['and', 'so', 'my', 'fellow']);
    // Two decodes agreeing on everything: the last word still waits.
    expect(settleAgreed([], second, second).map((word) => word.text)).toHaveLength(4);
  });

  it('does not settle words too near the end of the audio decoded, even when two decodes agree', () => {
    // Word ends: 0.3, 0.7, 1.1, 1.5, 1.9 s; audio decoded up to 2.2 s, margin 1 s.
    const first = words('and so my fellow');
    const second = words('and so my fellow Americans');
    expect(settleAgreed([], first, second, 1.2).map((word) => word.text)).toEqual(['and', 'so', 'my']);
    expect(settleAgreed([], first, second, 0.2)).toEqual([]);
  });

  it('never contradicts settled words: a later decode that disagrees is continued after them', () => {
    const settled = words('ask not what');
    // The new decode heard the same words differently, then more.
    const later = words('as not what your country');
    expect(continueSettled(settled, later).map((word) => word.text)).toEqual([
      'ask',
      'not',
      'what',
      'your',
      'country',
    ]);
    // Found by time when no word matches: only the words after the settled ones.
    const other = words('a knot watt your country');
    expect(continueSettled(settled, other).map((word) => word.text)).toEqual([
      'ask',
      'not',
      'what',
      'your',
      'country',
    ]);
  });

  it('places words on either side of a pause, or refuses when one straddles it', () => {
    // Word ends: 0.3, 0.7, 1.1; the next phrase starts at 1.6 s.
    const heard = [...words('and so my'), ...words('fellow Americans', 1.6)];
    expect(wordsBeforePause(heard, 1.35)).toBe(3);
    // Word times are estimates: a word ending a little into the pause is still before it.
    expect(wordsBeforePause(heard, 1.0)).toBe(3);
    // A pause in the middle of a long word, far from either of its ends: the word straddles it.
    const long = [...heard, { text: 'unquestionably', start: 2.6, end: 3.6 }];
    expect(wordsBeforePause(long, 3.1)).toBeUndefined();
    expect(wordsBeforePause(long, 2.4)).toBe(5);
    expect(wordsBeforePause(heard, 5)).toBe(5);
    expect(wordsBeforePause(heard, 0)).toBe(0);
  });

  it('drops the end of a final said again at the start of the words after it, and only that', () => {
    // "…de Buenos Aires." became final (0–2.3 s); the next decode's words start at 2.2 s.
    const final = words('en la ciudad de Buenos Aires.');
    const repeated = words('de Buenos Aires y después fuimos', 2.2);
    expect(withoutRepeatedLead(final, repeated).map((word) => word.text)).toEqual(['y', 'después', 'fuimos']);
    // Case and punctuation do not hide a repetition; the longest run wins.
    expect(withoutRepeatedLead(final, words('Buenos, Aires y', 2.2)).map((word) => word.text)).toEqual(['y']);
    // One word again: whisper's only when placed on the final's last word (2.0–2.3 s), else the speaker's.
    expect(withoutRepeatedLead(final, words('Aires y después', 2.2))).toHaveLength(2);
    expect(withoutRepeatedLead(final, words('Aires y después', 2.6))).toHaveLength(3);
    // Words that only look alike further on, or a phrase that begins differently, stay.
    expect(withoutRepeatedLead(final, words('y después Buenos Aires', 2.2))).toHaveLength(4);
    // A repetition said long after the final is the speaker's, not whisper's.
    expect(withoutRepeatedLead(final, words('Aires otra vez', 4))).toHaveLength(3);
    expect(withoutRepeatedLead([], repeated)).toEqual(repeated);
  });

  it('drops a second saying of the whole decode squeezed into the end of the audio, not one said', () => {
    // A live final of bench:live (base, German), word times as whisper.cpp gave them.
    const end = 46.976;
    const morgen: TimedWord = { text: 'Morgenstunden', start: 45.034, end: 46.974 };
    const squeezed: TimedWord[] = [
      morgen,
      ...['hat', 'Gäudemund.', 'Morgenstunden', 'hat', 'Gäudemund.'].map((text) => ({
        text,
        start: 46.974,
        end: 46.974,
      })),
    ];
    expect(withoutSqueezedRepeat(squeezed, end).map((word) => word.text)).toEqual([
      'Morgenstunden',
      'hat',
      'Gäudemund.',
    ]);
    // Said twice, the second time heard: kept.
    const said = words('thank you so much. Thank you so much.', 10);
    expect(withoutSqueezedRepeat(said, 13.3)).toEqual(said);
    // Not one phrase twice, or a single word twice: kept.
    const other = [...squeezed.slice(0, 3), ...squeezed.slice(3).map((word) => ({ ...word, text: 'nein' }))];
    expect(withoutSqueezedRepeat(other, end)).toEqual(other);
    const single = [morgen, { ...morgen, start: end, end }];
    expect(withoutSqueezedRepeat(single, end)).toEqual(single);
  });
});
