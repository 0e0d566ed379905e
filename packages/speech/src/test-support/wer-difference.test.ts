import { describe, expect, it } from 'vitest';
import { werDifference, type PairedWer } from './wer-difference.js';

const clip = (ours: number, theirs: number, referenceWords = 10): PairedWer => ({
  ours: { errors: ours, referenceWords },
  theirs: { errors: theirs, referenceWords },
});

describe('werDifference', () => {
  it('is 0 with no spread when both systems make the same errors', () => {
    const pairs = Array.from({ length: 12 }, (_, index) => clip(index % 3, index % 3));
    expect(werDifference(pairs)).toEqual({ difference: 0, low: 0, high: 0 });
  });

  it('gives an interval clear of 0 when one system is behind on every clip', () => {
    const pairs = Array.from({ length: 20 }, (_, index) => clip(1 + (index % 2), index % 2));
    const { difference, low, high } = werDifference(pairs);
    expect(difference).toBeCloseTo(0.1, 10);
    expect(low).toBeCloseTo(0.1, 10);
    expect(high).toBeCloseTo(0.1, 10);
  });

  it('gives an interval holding 0 when one clip makes the whole gap', () => {
    const pairs = [clip(5, 0), ...Array.from({ length: 19 }, () => clip(1, 1))];
    const { difference, low, high } = werDifference(pairs);
    expect(difference).toBeCloseTo(5 / 200, 10);
    // A resample without that clip (about a third of them) shows no difference at all.
    expect(low).toBe(0);
    expect(high).toBeGreaterThan(difference);
  });

  it('weighs clips by their words and shows the better system below 0', () => {
    const pairs = [clip(0, 4, 40), clip(1, 0, 5), ...Array.from({ length: 10 }, () => clip(0, 1, 10))];
    const { difference, low, high } = werDifference(pairs);
    expect(difference).toBeCloseTo((1 - 14) / 145, 10);
    expect(high).toBeLessThan(0);
    expect(low).toBeLessThanOrEqual(difference);
  });

  it('prints the same interval for the same results, and refuses no clips', () => {
    const pairs = Array.from({ length: 30 }, (_, index) => clip(index % 4, (index * 7) % 5));
    expect(werDifference(pairs)).toEqual(werDifference(pairs));
    expect(werDifference(pairs, 10_000, 2)).not.toEqual(werDifference(pairs));
    expect(() => werDifference([])).toThrow(RangeError);
  });
});
