import { speakerNames, type Transcript, type TranscriptSegment } from '../transcript.js';
import { toMilliseconds } from './timestamps.js';

/** Subtitle conventions (BBC, Netflix): two lines of 42 characters, on screen for at most 7 seconds. */
export const subtitleLimits = { maxLineChars: 42, maxLines: 2, maxCueMilliseconds: 7000 } as const;

/** One subtitle: times in whole milliseconds, one or two lines of plain (unescaped) text. */
export interface SubtitleCue {
  startMs: number;
  endMs: number;
  lines: string[];
  /** The name of who speaks, in a diarized transcript (a cue never spans two speakers). */
  speaker?: string;
}

interface TimedWord {
  text: string;
  startMs: number;
  endMs: number;
}

/** A token that is only closing punctuation belongs to the word before it ("word" + ","), not on its own. */
const closingPunctuation = /^[.,!?;:…%)\]}»"'”’]+$/u;
const sentenceEnd = /[.!?…]["'”’»)\]]*$/u;
const clauseEnd = /[,;:—–]["'”’»)\]]*$/u;

/**
 * Cuts a transcript into subtitle cues. Cues follow the words' own timings when the recogniser gave
 * words, else the segment's time split in proportion to the characters. A cue breaks preferably
 * after a sentence (. ? !), then after a clause (, ; :), else where the limits force it, always
 * between words; a single word longer than a line gets a line of its own. Cues never overlap and
 * never end before they start, nor where they start.
 */
/** The shortest cue shown; later cues move to keep the order. */
const minimumCueMilliseconds = 400;

/** What subtitles are made of; with the recording's duration a last cue never outlasts the audio. */
export type SubtitleSource = Pick<Transcript, 'segments' | 'speakers'> &
  Partial<Pick<Transcript, 'duration'>>;

export function buildSubtitleCues(transcript: SubtitleSource): SubtitleCue[] {
  const segments = [...transcript.segments].sort((a, b) => a.start - b.start);
  const names = speakerNames(transcript);
  const cues = segments.flatMap((segment) => {
    const speaker =
      segment.speaker === undefined ? undefined : (names.get(segment.speaker) ?? segment.speaker);
    const built = cuesOfWords(timedWordsOf(segment));
    return speaker === undefined ? built : built.map((cue) => ({ ...cue, speaker }));
  });
  const audioEndMs = transcript.duration === undefined ? Infinity : toMilliseconds(transcript.duration);
  let previous: SubtitleCue | undefined;
  for (const cue of cues) {
    cue.startMs = Math.max(cue.startMs, previous?.endMs ?? 0);
    // Players skip a cue that ends where it starts (a last word timed at the very end of the audio):
    // it lasts the minimum, taken before its start when it would otherwise outlast the audio.
    if (cue.endMs <= cue.startMs) cue.endMs = cue.startMs + minimumCueMilliseconds;
    const earliestStart = previous ? previous.startMs + minimumCueMilliseconds : 0;
    if (cue.endMs > audioEndMs && audioEndMs - minimumCueMilliseconds >= earliestStart) {
      cue.endMs = audioEndMs;
      cue.startMs = Math.min(cue.startMs, audioEndMs - minimumCueMilliseconds);
      if (previous) previous.endMs = Math.min(previous.endMs, cue.startMs);
    }
    previous = cue;
  }
  return cues;
}

function timedWordsOf(segment: TranscriptSegment): TimedWord[] {
  const fromWords = segment.words
    .map((word) => ({
      text: cleanText(word.text),
      startMs: toMilliseconds(word.start),
      endMs: Math.max(toMilliseconds(word.start), toMilliseconds(word.end)),
    }))
    .filter((word) => word.text !== '');
  const words = fromWords.length > 0 ? fromWords : proportionalWords(segment);
  const merged: TimedWord[] = [];
  for (const word of words) {
    const previous = merged.at(-1);
    if (previous && closingPunctuation.test(word.text)) {
      previous.text += word.text;
      previous.endMs = Math.max(previous.endMs, word.endMs);
    } else {
      merged.push({ ...word });
    }
  }
  return merged;
}

/** A segment without word timings: its time shared among its words in proportion to their length. */
function proportionalWords(segment: TranscriptSegment): TimedWord[] {
  const texts = cleanText(segment.text).split(' ').filter(Boolean);
  const startMs = toMilliseconds(segment.start);
  const durationMs = Math.max(0, toMilliseconds(segment.end) - startMs);
  const weights = texts.map((text) => text.length + 1);
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  let before = 0;
  return texts.map((text, index) => {
    const from = before;
    before += weights[index] ?? 0;
    return {
      text,
      startMs: startMs + Math.round((durationMs * from) / total),
      endMs: startMs + Math.round((durationMs * before) / total),
    };
  });
}

function cuesOfWords(words: TimedWord[]): SubtitleCue[] {
  const cues: SubtitleCue[] = [];
  let first = 0;
  while (first < words.length) {
    const firstWord = words[first] as TimedWord;
    // The longest run of words from `first` that fits the lines and the duration.
    let last = first;
    while (last + 1 < words.length) {
      const next = words[last + 1] as TimedWord;
      if (next.endMs - firstWord.startMs > subtitleLimits.maxCueMilliseconds) break;
      if (!fitsLines(words.slice(first, last + 2).map((word) => word.text))) break;
      last += 1;
    }
    if (last + 1 < words.length) last = preferredBreak(words, first, last);
    const cueWords = words.slice(first, last + 1);
    const lastWord = cueWords.at(-1) as TimedWord;
    cues.push({
      startMs: firstWord.startMs,
      // Only a single word that itself lasts longer than a cue may make one too long: cut its time.
      endMs: Math.min(lastWord.endMs, firstWord.startMs + subtitleLimits.maxCueMilliseconds),
      lines: layoutLines(cueWords.map((word) => word.text)),
    });
    first = last + 1;
  }
  return cues;
}

/** The last word in [first, last] after which to break: a sentence end, else a clause end, else `last`. */
function preferredBreak(words: TimedWord[], first: number, last: number): number {
  for (const pattern of [sentenceEnd, clauseEnd]) {
    for (let index = last; index >= first; index -= 1) {
      if (pattern.test(words[index]?.text ?? '')) return index;
    }
  }
  return last;
}

function fitsLine(texts: string[]): boolean {
  return texts.length === 1 || texts.join(' ').length <= subtitleLimits.maxLineChars;
}

/** Whether the words can be laid out on at most two lines (greedy filling finds a layout when one exists). */
function fitsLines(texts: string[]): boolean {
  let lines = 0;
  let start = 0;
  while (start < texts.length) {
    let end = start + 1;
    while (end < texts.length && fitsLine(texts.slice(start, end + 1))) end += 1;
    lines += 1;
    start = end;
  }
  return lines <= subtitleLimits.maxLines;
}

/**
 * One line when it fits, else two: split after a sentence end, else after a clause end, else
 * where the two lines are most even.
 */
function layoutLines(texts: string[]): string[] {
  if (fitsLine(texts)) return [texts.join(' ')];
  const candidates: { split: number; rank: number; imbalance: number }[] = [];
  for (let split = 1; split < texts.length; split += 1) {
    const top = texts.slice(0, split);
    const bottom = texts.slice(split);
    if (!fitsLine(top) || !fitsLine(bottom)) continue;
    const lastOfTop = top.at(-1) ?? '';
    const rank = sentenceEnd.test(lastOfTop) ? 0 : clauseEnd.test(lastOfTop) ? 1 : 2;
    candidates.push({ split, rank, imbalance: Math.abs(top.join(' ').length - bottom.join(' ').length) });
  }
  candidates.sort((a, b) => a.rank - b.rank || a.imbalance - b.imbalance || a.split - b.split);
  const best = candidates[0];
  // cuesOfWords only lays out words that fit two lines, so a candidate always exists.
  if (!best) return [texts.join(' ')];
  return [texts.slice(0, best.split).join(' '), texts.slice(best.split).join(' ')];
}

/** Whitespace (including line breaks, which would end a cue early) folded to single spaces. */
function cleanText(text: string): string {
  return text.replace(/\s+/gu, ' ').trim();
}
