import { deflateRawSync } from 'node:zlib';
import type { NativeSegment } from '../recogniser/native-addon.js';

/**
 * Guards against Whisper's known failures, as the reference implementation and faster-whisper
 * apply them: text with a gzip compression ratio above 2.4 is a repetition loop; a segment that
 * the model itself thinks is not speech and has a low log-probability is dropped; annotations of
 * sounds ("[Music]", "(applause)", "♪") are not words of the speaker.
 */
export const compressionRatioLimit = 2.4;
const noSpeechLimit = 0.6;
const lowConfidenceLogProbability = -1;

export function compressionRatio(text: string): number {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length === 0) return 0;
  return bytes.length / deflateRawSync(bytes).length;
}

/** The same 1-to-4-word phrase four or more times in a row: a decoding loop, not speech. */
export function hasRepetitionLoop(text: string): boolean {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  for (let size = 1; size <= 4; size += 1) {
    for (let start = 0; start + size * 4 <= words.length; start += 1) {
      const phrase = words.slice(start, start + size).join(' ');
      let repeats = 1;
      while (words.slice(start + repeats * size, start + (repeats + 1) * size).join(' ') === phrase)
        repeats += 1;
      if (repeats >= 4) return true;
    }
  }
  return false;
}

export function looksLikeLoop(text: string): boolean {
  return (text.length > 40 && compressionRatio(text) > compressionRatioLimit) || hasRepetitionLoop(text);
}

/**
 * A word as compared for a repeat: case, accents and punctuation aside, as whisper spells a word it
 * says again either way ("Fué", "Fue").
 */
export function repeatedWordLetters(word: string): string {
  return comparableWord(word.normalize('NFD').replace(/\p{M}/gu, ''));
}

/** The word as compared between decodes: case and punctuation do not make two words differ. */
export function comparableWord(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

function comparableWords(text: string): string[] {
  return text.split(/\s+/).map(repeatedWordLetters).filter(Boolean);
}

/**
 * Whether a decode says a sentence (3 words or more) twice, word for word: a segment says the one
 * before it again, or a segment is one sentence said two or more times over. On a short window
 * whisper sometimes decodes the sentence, then the same sentence once more over the silence after
 * it ("When water is cast, avoid Western eggs. When water is cast, avoid Western eggs."), as a
 * segment of its own or, with beam search, inside the same one ("I have a thousand thoughts about
 * that thing, I have a thousand thoughts about that thing."); a person who really says a sentence
 * twice is heard so again when the window is decoded again.
 */
export function repeatsASentence(segments: readonly Pick<NativeSegment, 'text'>[]): boolean {
  let previous: string[] = [];
  for (const segment of segments) {
    const current = comparableWords(segment.text);
    if (previous.length >= 3 && previous.join(' ') === current.join(' ')) return true;
    if (isOnePhraseRepeated(current)) return true;
    previous = current;
  }
  return false;
}

/** The words are one phrase of 3 words or more, said two or more times in a row. */
function isOnePhraseRepeated(words: readonly string[]): boolean {
  for (let size = 3; size * 2 <= words.length; size += 1) {
    if (words.length % size === 0 && words.every((word, index) => word === words[index % size])) return true;
  }
  return false;
}

/** "[Music]", "(applause)", "*laughs*", "♪ … ♪": sound annotations, not speech. */
const soundAnnotation = /\[[^\]]*\]|\([^)]*\)|\*[^*]+\*|♪[^♪]*♪?|[♪♫]/g;

export function withoutSoundAnnotations(text: string): string {
  return text.replace(soundAnnotation, ' ').replace(/\s+/g, ' ').trim();
}

/**
 * Phrases Whisper is known to invent on silence or noise (its training data's subtitle credits);
 * dropped only when the model was also unsure, so a speaker who really says "thank you" keeps it.
 */
const knownInventions = [
  /^(thank you|thanks) (so much )?for watching[.!]?$/i,
  /^thank you[.!]?$/i,
  /^sous-titr(es|age) (réalisés? )?(par|st'?) /i,
  /^merci d'avoir regardé/i,
  /^untertitel (im auftrag|der amara|von)/i,
  /^subtítulos (realizados )?por/i,
  /^amara\.org/i,
];

export function isNonSpeechSegment(segment: NativeSegment): boolean {
  const text = withoutSoundAnnotations(segment.text);
  if (!text || !/[\p{L}\p{N}]/u.test(text)) return true;
  if (
    segment.noSpeechProbability > noSpeechLimit &&
    segment.averageLogProbability < lowConfidenceLogProbability
  ) {
    return true;
  }
  const unsure = segment.averageLogProbability < -0.6 || segment.noSpeechProbability > 0.3;
  return unsure && knownInventions.some((pattern) => pattern.test(text));
}
