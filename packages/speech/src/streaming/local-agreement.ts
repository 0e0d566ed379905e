import { comparableWord, repeatedWordLetters } from '../engine/hallucination-guards.js';

/** A recognised word on the session's time line (seconds from the start of the stream). */
export interface TimedWord {
  text: string;
  start: number;
  end: number;
}

function sameWord(a: TimedWord | undefined, b: TimedWord | undefined): boolean {
  return a !== undefined && b !== undefined && comparableWord(a.text) === comparableWord(b.text);
}

/** How many leading words two decodes agree on. */
export function agreedPrefixLength(a: readonly TimedWord[], b: readonly TimedWord[]): number {
  let length = 0;
  while (length < a.length && length < b.length && sameWord(a[length], b[length])) length += 1;
  return length;
}

/** How far an alignment may slip when a new decode splits or joins a word or two of the settled text. */
const alignmentSlack = 3;
/** Word times are estimates: a new word may start this much before the last settled one ends. */
const timeTolerance = 0.08;

/**
 * The settled words followed by what a new decode says after them. The settled words are kept as
 * they are whatever the new decode says about the same audio, so nothing that has settled is ever
 * contradicted. The new decode's continuation is found by its words (the settled text's last
 * word, near where it should be), or else by time (words starting after the settled ones end).
 */
export function continueSettled(
  settled: readonly TimedWord[],
  hypothesis: readonly TimedWord[],
): TimedWord[] {
  if (settled.length === 0) return [...hypothesis];
  const agreed = agreedPrefixLength(settled, hypothesis);
  if (agreed === settled.length) return [...settled, ...hypothesis.slice(agreed)];
  const last = settled[settled.length - 1];
  const phraseEnd = endOfSettledPhrase(settled, hypothesis);
  if (phraseEnd !== undefined) return [...settled, ...hypothesis.slice(phraseEnd)];
  const from = Math.max(1, settled.length - alignmentSlack);
  const to = Math.min(hypothesis.length, settled.length + alignmentSlack);
  for (let end = to; end >= from; end -= 1) {
    if (sameWord(hypothesis[end - 1], last)) return [...settled, ...hypothesis.slice(end)];
  }
  const settledEnd = last?.end ?? 0;
  return [...settled, ...hypothesis.filter((word) => word.start >= settledEnd - timeTolerance)];
}

/** Words of the settled text's end that, found together in a new decode, place its continuation. */
const settledPhraseWords = 3;

/**
 * Where the settled text's last three words end in the hypothesis, the occurrence nearest the
 * settled text's length: a decode that heard earlier words differently ("some however, cat has
 * taught them that he is in charge here" where partials settled "some he is in charge here") still
 * says the phrase the settled text ends with, wherever it falls.
 */
function endOfSettledPhrase(
  settled: readonly TimedWord[],
  hypothesis: readonly TimedWord[],
): number | undefined {
  if (settled.length < settledPhraseWords) return undefined;
  const phrase = settled.slice(settled.length - settledPhraseWords);
  let best: number | undefined;
  for (let end = settledPhraseWords; end <= hypothesis.length; end += 1) {
    if (!phrase.every((word, index) => sameWord(hypothesis[end - settledPhraseWords + index], word)))
      continue;
    if (best === undefined || Math.abs(end - settled.length) < Math.abs(best - settled.length)) best = end;
  }
  return best;
}

/**
 * Local agreement (as in whisper_streaming): of two successive decodes of the same growing audio,
 * the words both agree on settle; the last word of a decode never settles (it may be cut short),
 * nor does a word ending after `settleBefore` (seconds): near the end of the audio decoded, whisper
 * has not heard what follows, and two decodes can agree on the same wrong guess ("why don't you
 * get" for "when are you getting", heard at 0.7 and 1.3 s).
 * Returns the new settled words, which always begin with the previous ones.
 */
export function settleAgreed(
  settled: readonly TimedWord[],
  previous: readonly TimedWord[] | undefined,
  current: readonly TimedWord[],
  settleBefore = Infinity,
): TimedWord[] {
  if (!previous) return [...settled];
  let agreed = Math.min(agreedPrefixLength(previous, current), current.length - 1);
  while (agreed > 0 && (current[agreed - 1]?.end ?? Infinity) > settleBefore) agreed -= 1;
  return agreed > settled.length ? current.slice(0, agreed) : [...settled];
}

/** Word times are estimates: a word may overlap the pause it is placed before or after this much (seconds). */
export const pauseWordTolerance = 0.25;

/**
 * How many of the words (in order) lie before the pause at `seconds`, or undefined when a word
 * straddles it: each word must end by the pause or start after it, within `pauseWordTolerance`.
 */
export function wordsBeforePause(words: readonly TimedWord[], seconds: number): number | undefined {
  const count = words.findIndex((word) => (word.start + word.end) / 2 >= seconds);
  const before = count < 0 ? words.length : count;
  const lastBefore = words[before - 1];
  const firstAfter = words[before];
  if (lastBefore && lastBefore.end > seconds + pauseWordTolerance) return undefined;
  if (firstAfter && firstAfter.start < seconds - pauseWordTolerance) return undefined;
  if (words.slice(before).some((word) => (word.start + word.end) / 2 < seconds)) return undefined;
  return before;
}

/**
 * The longest repetition looked for at the seam between a final and the words after it: a whole
 * sentence. Given little audio after a final (the rest of a sentence cut at its quietest moment),
 * whisper says the prompt's last sentence again ("…pecuniary advantage. I have been unable to reap
 * any pecuniary advantage.", bench:live); a person does not repeat 6 words or more at once.
 */
const maxRepeatedWords = 40;
/** A repetition counts only when the new words start this soon after the final's last word (seconds). */
const repetitionSeconds = 1;

/**
 * The words of a decode that follows a final, without the final's last words said again at their
 * start. A decode that starts right after a final, with the final's text as its prompt, sometimes
 * begins by repeating the prompt's end (whisper continuing the text it was given rather than the
 * audio); as whisper_streaming does with up to 5, the longest run of leading words (2 up to
 * `maxRepeatedWords`) equal to the final's last words is dropped when it starts within a second of
 * the final's end (a single word only when it overlaps the final's last word in time).
 */
export function withoutRepeatedLead(final: readonly TimedWord[], words: readonly TimedWord[]): TimedWord[] {
  const last = final[final.length - 1];
  const first = words[0];
  if (!last || !first || first.start - last.end > repetitionSeconds) return [...words];
  // One word said again may be the speaker's ("…said no. No, I…"): only when whisper placed it
  // on the final's own last word.
  const fewest = first.start < last.end + timeTolerance ? 1 : 2;
  for (let count = Math.min(maxRepeatedWords, final.length, words.length); count >= fewest; count -= 1) {
    const tail = final.slice(final.length - count);
    if (repeatsPhrase(tail, words.slice(0, count))) return words.slice(count);
  }
  return [...words];
}

/** Fewest of the context's first words that, said again, are taken for whisper's repeat. */
const minRepeatedContextWords = 3;

/**
 * The words of a phrase decoded after its context (the final words before it, forced as the
 * decoder's prefix) up to where they begin to say the context again: whisper sometimes decodes the
 * whole window once more after the phrase ("…T-Rex bei ihm nicht gewachsen. Er griff auch alles
 * an, was ins Wasser kam, …", the context's first words again), or before it. A person rarely
 * says the last words of a final again at once, from their first word on.
 */
export function withoutRepeatedContext(
  context: readonly TimedWord[],
  words: readonly TimedWord[],
): TimedWord[] {
  const opening = context.slice(0, minRepeatedContextWords);
  if (opening.length < minRepeatedContextWords) return [...words];
  for (let index = 0; index + opening.length <= words.length; index += 1) {
    if (!repeatsPhrase(opening, words.slice(index, index + opening.length))) continue;
    if (index > 0) return words.slice(0, index);
    // The whole context again before the phrase: the phrase is what follows it.
    if (repeatsPhrase(context, words.slice(0, context.length))) return words.slice(context.length);
  }
  return [...words];
}

/**
 * The prefix of a phrase after words final at a pause, without the full stop whisper ends a window
 * with where its audio ends: forced as the decoder's prefix, a stop made the phrase after the pause
 * a new sentence ("…notre organisation. Quel est la révocation" for "organisation qu'à la
 * révocation"). Whisper ends the sentence itself when it hears one end there.
 */
export function prefixWithoutStop(text: string): string {
  return text.replace(/[.!?。]+$/u, '');
}

/**
 * The words of a phrase continued from a prefix given without its stop: a stop or comma whisper
 * put first ends the words before it, and after a final ending with a stop the phrase begins with a
 * capital, as the final's text has it (whisper writes the rest of the sentence it believes in, and
 * a lower-case phrase in the prompt makes it write the next sentences in lower case too).
 */
export function continuedAfterPrefix(prefix: string, words: TimedWord[]): TimedWord[] {
  const kept = words.filter((word, index) => index > 0 || !/^[.,;:!?。]+$/u.test(word.text));
  const head = kept[0];
  if (!head) return kept;
  const text = head.text.replace(/^[.,;:!?。]+/u, '');
  const capital = /[.!?。]$/u.test(prefix) ? text.charAt(0).toLocaleUpperCase() + text.slice(1) : text;
  kept[0] = { ...head, text: capital };
  return kept;
}

/**
 * Whether `again` says the `phrase` once more: the same words, accents aside, of which one, in a
 * phrase of 3 words or more, may be the same word with another ending, as whisper writes a word it
 * hears twice ("además de establecer sus perspectivas" / "Además de establecer sus perspectivos").
 */
function repeatsPhrase(phrase: readonly TimedWord[], again: readonly TimedWord[]): boolean {
  let otherEndings = 0;
  for (const [index, word] of phrase.entries()) {
    const a = repeatedWordLetters(word.text);
    const b = repeatedWordLetters(again[index]?.text ?? '');
    if (a === b) continue;
    if (!sameStem(a, b)) return false;
    otherEndings += 1;
  }
  return otherEndings === 0 || (phrase.length >= 3 && otherEndings === 1);
}

/** Words of 5 letters or more that differ only in their last two letters. */
function sameStem(a: string, b: string): boolean {
  const longer = Math.max(a.length, b.length);
  if (Math.min(a.length, b.length) < 5 || longer - Math.min(a.length, b.length) > 2) return false;
  let common = 0;
  while (common < a.length && a[common] === b[common]) common += 1;
  return common >= longer - 2;
}

/** A repeat ending this close to the end of the decoded audio was squeezed into it (seconds). */
const squeezedEndSeconds = 0.1;
/** Fewer seconds per word than this is no one's speech: times whisper squeezed (seconds). */
const squeezedSecondsPerWord = 0.1;

/**
 * The words of a decode without what whisper squeezed into the end of the audio repeating the
 * words before it. A phrase followed by silence sometimes comes out twice, or loops on (seen in
 * bench:live: "Morgenstunden hat Gäudemund. Morgenstunden hat Gäudemund.", "además de establecer
 * sus perspectivas, además de establecer sus perspectivas, además de establecer"), the repeat
 * crammed into the last tenth of a second of the audio, faster than anyone speaks. A person who
 * says it twice is heard saying it: the second time has times of its own, and is kept.
 */
export function withoutSqueezedRepeat(words: readonly TimedWord[], audioEnd: number): TimedWord[] {
  const last = words[words.length - 1];
  if (!last || last.end < audioEnd - squeezedEndSeconds) return [...words];
  const letters = words.map((word) => repeatedWordLetters(word.text));
  // The earliest start of a run of 2 words or more that goes on repeating the phrase before it.
  for (let start = 2; start <= words.length - 2; start += 1) {
    const first = words[start];
    const length = words.length - start;
    if (!first || last.end - first.start >= length * squeezedSecondsPerWord) continue;
    for (let period = 2; period <= start; period += 1) {
      let repeats = true;
      for (let index = start; repeats && index < words.length; index += 1)
        repeats = letters[index] === letters[index - period];
      if (repeats) return words.slice(0, start);
    }
  }
  return [...words];
}

export function joinWords(words: readonly TimedWord[]): string {
  return words
    .map((word) => word.text)
    .join(' ')
    .trim();
}
