import { describe, expect, it } from 'vitest';
import {
  agreedPrefixLength,
  continueSettled,
  continuedAfterPrefix,
  joinWords,
  prefixWithoutStop,
  settleAgreed,
  withoutRepeatedLead,
  withoutRepeatedContext,
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

  it('continues settled words after their last phrase, wherever a new decode that heard earlier words differently says it', () => {
    // A live English final (greedy, bench:live): the partials had settled words the final heard
    // differently before them, and its word times were squeezed into the end of the audio.
    const settled = words('some he is in charge here and he just chases them for fun now', 47.6);
    const final = words(
      'some however, cat has taught them that he is in charge here and he just chases them for fun now and again when he is not busy sleeping.',
      47.6,
    ).map((word, index) => (index < 2 ? word : { ...word, start: 54.9, end: 54.9 }));
    expect(joinWords(continueSettled(settled, final))).toBe(
      'some he is in charge here and he just chases them for fun now and again when he is not busy sleeping.',
    );
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

  it('drops the final’s whole last sentence said again after it', () => {
    // bench:live, English: the rest of a long sentence, after a cut, heard as the prompt's end.
    const final = words('and however much I met with, I have been unable to reap any pecuniary advantage.');
    const again = words('I have been unable to reap any pecuniary advantage.', 5.8);
    expect(withoutRepeatedLead(final, again)).toEqual([]);
    const more = words('I have been unable to reap any pecuniary advantage. No one', 5.8);
    expect(withoutRepeatedLead(final, more).map((word) => word.text)).toEqual(['No', 'one']);
    // Not when the sentence comes long after the final.
    expect(
      withoutRepeatedLead(final, words('I have been unable to reap any pecuniary advantage.', 8)),
    ).toHaveLength(9);
  });

  it('drops a final phrase said again with one word ending differently, not two words alike', () => {
    // bench:live, Spanish: the final "…además de establecer sus perspectivas." and the next decode.
    const final = words('a través de la respuesta además de establecer sus perspectivas.');
    const again = words('Además de establecer sus perspectivos, sobre temas específicos', 2.9);
    expect(withoutRepeatedLead(final, again).map((word) => word.text)).toEqual([
      'sobre',
      'temas',
      'específicos',
    ]);
    // Two words, or two words of the phrase changed, or another word than an ending: kept.
    expect(withoutRepeatedLead(final, words('sus perspectivos nuevas', 2.9))).toHaveLength(3);
    expect(withoutRepeatedLead(final, words('establecen sus perspectivos y', 2.9))).toHaveLength(4);
    expect(withoutRepeatedLead(final, words('de establecer tus perspectivas y', 2.9))).toHaveLength(5);
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

  it('drops a squeezed repeat of the last phrase, its first word placed before the end, or looping on', () => {
    // Live finals of bench:live (base, Spanish), word times as whisper.cpp gave them.
    const timed = (spec: string): TimedWord[] =>
      spec.split(' ').map((item) => {
        const [text, times] = item.split('@') as [string, string];
        const [start, end] = times.split('-').map(Number) as [number, number];
        return { text, start, end };
      });
    const perspectivas = timed(
      'además@28.65-28.92 de@28.92-29.03 establecer@29.03-29.53 sus@29.63-29.69 perspectivos,@29.79-30.54 ' +
        'además@30.54-30.71 de@30.71-30.71 establecer@30.71-30.71 sus@30.71-30.71 perspectivos,@30.71-30.71',
    );
    expect(withoutSqueezedRepeat(perspectivas, 30.72)).toEqual(perspectivas.slice(0, 5));
    // Looping on past the second saying.
    const looping = [...perspectivas, ...timed('además@30.71-30.71 de@30.71-30.71 establecer@30.71-30.71')];
    expect(withoutSqueezedRepeat(looping, 30.72)).toEqual(perspectivas.slice(0, 5));
    const gente = timed(
      'Fué@38.49-38.62 tanta@38.62-38.94 la@38.98-39.09 cantidad@39.09-39.64 de@39.64-39.75 gente@39.76-40.08 ' +
        'que@40.14-40.31 se@40.31-40.44 concentró.@40.44-41.20 Fue@41.20-41.20 tanta@41.20-41.20 la@41.21-41.21 ' +
        'cantidad@41.21-41.23 de@41.23-41.23 gente@41.23-41.24 que@41.24-41.24 se@41.24-41.24 concentró.@41.24-41.33',
    );
    expect(withoutSqueezedRepeat(gente, 41.34)).toEqual(gente.slice(0, 9));
    // A phrase said again at a speaking pace, up to the end of the audio: kept.
    const twice = words('no way no way', 10);
    expect(withoutSqueezedRepeat(twice, 11.6)).toEqual(twice);
    // Squeezed but said once ("En la plaza de San Pedro", its last words at the end): kept.
    const once = timed(
      'En@43.86-45.03 la@45.30-45.30 plaza@45.30-45.30 de@45.30-45.30 San@45.30-45.30 Pedro@45.30-45.30',
    );
    expect(withoutSqueezedRepeat(once, 45.31)).toEqual(once);
  });

  it('cuts a continued phrase where whisper begins to say its context again', () => {
    const context = words('Er griff auch alles an, was ins Wasser kam,', 20);
    const phrase = words('selbst ein großer Dinosaurier wäre ihm nicht gewachsen.', 23.6);
    const text = (timed: TimedWord[]) => timed.map((word) => word.text).join(' ');
    // The whole window again after the phrase, one word with another ending.
    const after = [...phrase, ...words('Er griff auch alle an, was ins Wasser kam, selbst', 26.4)];
    expect(text(withoutRepeatedContext(context, after))).toBe(text(phrase));
    // The context again before the phrase.
    expect(
      text(
        withoutRepeatedContext(context, [
          ...words('er griff auch alles an was ins Wasser kam', 20),
          ...phrase,
        ]),
      ),
    ).toBe(text(phrase));
    // Its first words said again in the phrase, as a speaker does, not the whole context: kept.
    const again = words('Er griff noch einmal an.', 23.6);
    expect(withoutRepeatedContext(context, again)).toEqual(again);
    const partly = [...words('Er griff auch', 23.6), ...phrase];
    expect(withoutRepeatedContext(context, partly)).toEqual(partly);
    // A context of two words: too short to tell a repeat from speech.
    expect(withoutRepeatedContext(words('Er griff'), after)).toEqual(after);
  });

  it('gives a phrase continued after a pause its prefix without the stop whisper put where the audio ended', () => {
    expect(prefixWithoutStop('au sein de notre organisation.')).toBe('au sein de notre organisation');
    expect(prefixWithoutStop('¿Qué hora es?')).toBe('¿Qué hora es');
    expect(prefixWithoutStop('de nos athlètes,')).toBe('de nos athlètes,');
  });

  it('begins a continued phrase as the final before it ends: a leading stop dropped, a capital after a stop', () => {
    const text = (list: TimedWord[]) => joinWords(list);
    // Whisper continuing "…organisation" (the final shows "organisation.") in lower case.
    expect(text(continuedAfterPrefix('organisation.', words("qu'à la révocation", 5)))).toBe(
      "Qu'à la révocation",
    );
    // It ended the sentence itself: the stop belongs to the final's words.
    expect(text(continuedAfterPrefix('organisation.', words('. Il a ajouté', 5)))).toBe('Il a ajouté');
    expect(text(continuedAfterPrefix('myself', words('.It will be seen', 5)))).toBe('It will be seen');
    // After a final without a stop, the phrase is left as whisper wrote it.
    expect(text(continuedAfterPrefix('de nos athlètes,', words('et de nos clubs', 5)))).toBe(
      'et de nos clubs',
    );
    expect(text(continuedAfterPrefix('myself.', words('¿Qué', 5)))).toBe('¿Qué');
    expect(continuedAfterPrefix('myself.', words('.', 5))).toEqual([]);
  });
});
