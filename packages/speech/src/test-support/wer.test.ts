import { describe, expect, it } from 'vitest';

import { cardinalWords, ordinalWords, spellOutEnglishNumbers } from './english-numbers.js';
import { aggregateWer, alignWords, normaliseForScoring, wordErrorRate } from './wer.js';

describe('normaliseForScoring', () => {
  it('folds case, punctuation, curly apostrophes and English spelling variants', () => {
    expect(normaliseForScoring('Mr. Quilter’s gospel, isn’t it?! “Yes” — Dr Who & Mrs. OK', 'en')).toEqual([
      'mister',
      "quilter's",
      'gospel',
      "isn't",
      'it',
      'yes',
      'doctor',
      'who',
      'and',
      'missus',
      'okay',
    ]);
  });

  it('splits hyphenated words, drops quotes around words and dots inside abbreviations', () => {
    expect(normaliseForScoring("ill-disposed 'tis the boys' U.S.A. self–substantial", 'en')).toEqual([
      'ill',
      'disposed',
      'tis',
      'the',
      'boys',
      'usa',
      'self',
      'substantial',
    ]);
  });

  it('spells out English numbers', () => {
    expect(
      normaliseForScoring('1 From fairest, 2002 and 21st; 1,000,000 at 3.5% in 1990 or 1905, the 12th', 'en'),
    ).toEqual(
      (
        'one from fairest two thousand two and twenty first one million at three point five percent in ' +
        'nineteen ninety or nineteen oh five the twelfth'
      ).split(' '),
    );
  });

  it('keeps digits, ß and accents in French, German and Spanish; elisions and « » separate words', () => {
    expect(normaliseForScoring('Il a ajouté qu’« on ne devrait », l’USOC (États-Unis) 2002', 'fr')).toEqual([
      'il',
      'a',
      'ajouté',
      'qu',
      'on',
      'ne',
      'devrait',
      'l',
      'usoc',
      'états',
      'unis',
      '2002',
    ]);
    expect(normaliseForScoring("qu'on", 'fr')).toEqual(['qu', 'on']);
    expect(normaliseForScoring('Ein GROSSER Dinosaurier, größer als T-Rex.', 'de')).toEqual([
      'ein',
      'grosser',
      'dinosaurier',
      'größer',
      'als',
      't',
      'rex',
    ]);
    expect(normaliseForScoring('«puede empoderar» Oravec 2002', 'es')).toEqual([
      'puede',
      'empoderar',
      'oravec',
      '2002',
    ]);
  });

  it('applies NFKC: decomposed accents and compatibility characters equal their composed forms', () => {
    expect(normaliseForScoring('e\u0301te\u0301 ﬁn', 'fr')).toEqual(['été', 'fin']);
  });
});

describe('English numbers', () => {
  it('spells cardinals and ordinals', () => {
    expect(cardinalWords(0)).toEqual(['zero']);
    expect(cardinalWords(115).join(' ')).toBe('one hundred fifteen');
    expect(cardinalWords(2002).join(' ')).toBe('two thousand two');
    expect(cardinalWords(1_000_001).join(' ')).toBe('one million one');
    expect(ordinalWords(21).join(' ')).toBe('twenty first');
    expect(ordinalWords(40).join(' ')).toBe('fortieth');
    expect(ordinalWords(100).join(' ')).toBe('one hundredth');
    expect(spellOutEnglishNumbers('1900 2nd 3rd').trim().split(/\s+/).join(' ')).toBe(
      'one thousand nine hundred second third',
    );
  });
});

describe('wordErrorRate', () => {
  it('counts a substitution and a deletion exactly', () => {
    expect(wordErrorRate('the cat sat on the mat', 'the cat sit on mat', 'en')).toEqual({
      wer: 2 / 6,
      errors: 2,
      referenceWords: 6,
      substitutions: 1,
      deletions: 1,
      insertions: 0,
    });
  });

  it('counts insertions, and a perfect match is zero', () => {
    expect(wordErrorRate('a b c', 'a x b c y', 'en')).toMatchObject({ errors: 2, insertions: 2, wer: 2 / 3 });
    expect(wordErrorRate('a b c', 'a b c', 'en')).toMatchObject({ errors: 0, wer: 0 });
  });

  it('scores nothing against nothing as 0 and words against an empty reference as whole errors', () => {
    expect(wordErrorRate('', '', 'en')).toMatchObject({ wer: 0, errors: 0, referenceWords: 0 });
    expect(wordErrorRate(' ', 'uh huh', 'en')).toMatchObject({ wer: 2, insertions: 2, referenceWords: 0 });
    expect(wordErrorRate('hello world', '', 'en')).toMatchObject({ wer: 1, deletions: 2 });
  });

  it('does not count casing, punctuation or number spelling between a corpus reference and a recogniser', () => {
    expect(
      wordErrorRate(
        'MISTER QUILTER IS THE APOSTLE OF THE MIDDLE CLASSES',
        'Mr. Quilter is the apostle of the middle classes.',
        'en',
      ).errors,
    ).toBe(0);
    expect(
      wordErrorRate(
        '1 From fairest creatures we desire increase, That thereby beauty’s rose might never die,',
        "One from fairest creatures we desire increase that thereby beauty's rose might never die.",
        'en',
      ).errors,
    ).toBe(0);
  });

  it('aligns word lists directly', () => {
    expect(alignWords(['a', 'b'], ['b'])).toMatchObject({ deletions: 1, errors: 1 });
  });
});

describe('aggregateWer', () => {
  it('sums errors and reference words instead of averaging rates', () => {
    const total = aggregateWer([wordErrorRate('a b c d', 'a b c x', 'en'), wordErrorRate('e f', 'g', 'en')]);
    expect(total).toEqual({
      wer: 3 / 6,
      errors: 3,
      referenceWords: 6,
      substitutions: 2,
      deletions: 1,
      insertions: 0,
    });
    expect(aggregateWer([])).toMatchObject({ wer: 0, errors: 0, referenceWords: 0 });
  });
});
