import { seededRandom } from './seeded-random.js';
import type { WerResult } from './wer.js';

type Counts = Pick<WerResult, 'errors' | 'referenceWords'>;

/** One clip scored for both systems, against the same reference. */
export interface PairedWer {
  ours: Counts;
  theirs: Counts;
}

export interface WerDifference {
  /** Our WER minus theirs over all the clips (a fraction, as `WerResult.wer`). */
  difference: number;
  /** The 95 % interval of that difference over resamples of the clips. */
  low: number;
  high: number;
}

/**
 * How far two systems' WER on the same clips lie apart, and whether that is more than the clips'
 * spread: a paired bootstrap over clips (each resample draws clips with replacement, both systems'
 * results of a clip together, and takes the difference of the pooled WERs). On a few hundred words
 * a gap of one point can come from a single clip; an interval that holds 0 says the clips cannot
 * tell the two apart. Seeded (`seededRandom`), so that the same results give the same interval.
 */
export function werDifference(pairs: readonly PairedWer[], resamples = 10_000, seed = 1): WerDifference {
  if (pairs.length === 0) throw new RangeError('werDifference needs at least one clip');
  const random = seededRandom(seed);
  const differences = new Float64Array(resamples);
  for (let resample = 0; resample < resamples; resample++) {
    let ours = 0;
    let theirs = 0;
    let words = 0;
    for (let draw = 0; draw < pairs.length; draw++) {
      const pair = pairs[Math.floor(random() * pairs.length)];
      if (!pair) continue;
      ours += pair.ours.errors;
      theirs += pair.theirs.errors;
      words += pair.ours.referenceWords;
    }
    differences[resample] = (ours - theirs) / Math.max(1, words);
  }
  differences.sort();
  const words = pairs.reduce((sum, pair) => sum + pair.ours.referenceWords, 0);
  const errors = (side: keyof PairedWer) => pairs.reduce((sum, pair) => sum + pair[side].errors, 0);
  return {
    difference: (errors('ours') - errors('theirs')) / Math.max(1, words),
    low: differences[Math.floor(0.025 * (resamples - 1))] ?? 0,
    high: differences[Math.ceil(0.975 * (resamples - 1))] ?? 0,
  };
}
