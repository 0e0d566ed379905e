import { spellOutEnglishNumbers } from './english-numbers.js';

/**
 * Word error rate for tests and benchmarks: Levenshtein distance between the words of a reference
 * and of a hypothesis, after the same normalisation of both, so that casing, punctuation and
 * number spelling do not count as errors.
 */
export interface WerResult {
  /** errors / referenceWords (an empty reference counts each inserted word as a whole error). */
  wer: number;
  errors: number;
  referenceWords: number;
  substitutions: number;
  deletions: number;
  insertions: number;
}

/**
 * English spellings that recognisers and references write differently for the same spoken word.
 * Kept small on purpose: each entry is a word both forms are read as.
 */
const englishVariants: Record<string, string> = {
  mr: 'mister',
  mrs: 'missus',
  dr: 'doctor',
  ok: 'okay',
};

/**
 * The words of a text as scored:
 * - Unicode NFKC, lower case;
 * - curly and typographic quotes/apostrophes unified, « » and double quotes removed;
 * - English only: digits spelled out ({@link spellOutEnglishNumbers}), `&` → "and", the variants
 *   above (mr → mister, mrs → missus, dr → doctor, ok → okay), apostrophes inside words kept
 *   ("don't", "beauty's");
 * - other languages: digits left as digits on both sides; an apostrophe separates words (French
 *   and Italian elision: "l'accident" → "l accident", "qu'« on" and "qu'on" both → "qu on");
 * - hyphens and dashes split words ("états-unis" → "états unis"), dots inside abbreviations are
 *   dropped ("u.s." → "us"), all other punctuation removed.
 */
export function normaliseForScoring(text: string, language: string): string[] {
  const english = language.toLowerCase().split(/[-_]/)[0] === 'en';
  let normalised = text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[‘’‚‛′`´ʼ]/gu, "'")
    .replace(/[“”„‟″«»"]/gu, ' ');
  if (english) normalised = spellOutEnglishNumbers(normalised).replace(/&/g, ' and ');
  normalised = normalised
    .replace(/(?<=\p{L})\.(?=\p{L})/gu, '')
    .replace(/[-‐‑‒–—―_]/gu, ' ')
    .replace(/[^\p{L}\p{M}\p{N}'\s]/gu, ' ');
  if (!english) normalised = normalised.replace(/'/g, ' ');
  return normalised
    .split(/\s+/u)
    .map((word) => word.replace(/^'+|'+$/g, ''))
    .filter(Boolean)
    .map((word) => (english ? (englishVariants[word] ?? word) : word));
}

/** WER of a hypothesis against a reference, with the substitutions, deletions and insertions of one minimal alignment. */
export function wordErrorRate(reference: string, hypothesis: string, language: string): WerResult {
  return alignWords(normaliseForScoring(reference, language), normaliseForScoring(hypothesis, language));
}

/** Edit distance on words, backtracked to count each kind of error (a match or substitution is preferred on ties). */
export function alignWords(reference: readonly string[], hypothesis: readonly string[]): WerResult {
  const rows = reference.length + 1;
  const columns = hypothesis.length + 1;
  const cost = new Uint32Array(rows * columns);
  for (let i = 0; i < rows; i += 1) cost[i * columns] = i;
  for (let j = 0; j < columns; j += 1) cost[j] = j;
  const at = (i: number, j: number) => cost[i * columns + j] ?? 0;
  for (let i = 1; i < rows; i += 1) {
    for (let j = 1; j < columns; j += 1) {
      const substitution = at(i - 1, j - 1) + (reference[i - 1] === hypothesis[j - 1] ? 0 : 1);
      cost[i * columns + j] = Math.min(substitution, at(i - 1, j) + 1, at(i, j - 1) + 1);
    }
  }
  let substitutions = 0;
  let deletions = 0;
  let insertions = 0;
  let i = rows - 1;
  let j = columns - 1;
  while (i > 0 || j > 0) {
    const same = i > 0 && j > 0 && reference[i - 1] === hypothesis[j - 1];
    if (i > 0 && j > 0 && at(i, j) === at(i - 1, j - 1) + (same ? 0 : 1)) {
      if (!same) substitutions += 1;
      i -= 1;
      j -= 1;
    } else if (i > 0 && at(i, j) === at(i - 1, j) + 1) {
      deletions += 1;
      i -= 1;
    } else {
      insertions += 1;
      j -= 1;
    }
  }
  return werOf({ substitutions, deletions, insertions, referenceWords: reference.length });
}

/** The WER of a whole test set: errors and reference words summed, not an average of rates. */
export function aggregateWer(
  results: readonly Pick<WerResult, 'substitutions' | 'deletions' | 'insertions' | 'referenceWords'>[],
): WerResult {
  const sum = (key: 'substitutions' | 'deletions' | 'insertions' | 'referenceWords') =>
    results.reduce((total, result) => total + result[key], 0);
  return werOf({
    substitutions: sum('substitutions'),
    deletions: sum('deletions'),
    insertions: sum('insertions'),
    referenceWords: sum('referenceWords'),
  });
}

function werOf(
  counts: Pick<WerResult, 'substitutions' | 'deletions' | 'insertions' | 'referenceWords'>,
): WerResult {
  const errors = counts.substitutions + counts.deletions + counts.insertions;
  return { wer: errors / Math.max(1, counts.referenceWords), errors, ...counts };
}
