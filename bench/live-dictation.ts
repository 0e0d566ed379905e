// What a person dictating feels: for each sentence, how long after they stop talking it settles
// (its final), alone and with other sessions streaming at once; how long after Stop (`Done` right
// after the last word) the last final comes; and how accurate the finals are against the
// product's own batch transcription of the same audio.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { liveTranscriptLines, type LiveServerMessage } from '@verbatim/contracts';
import { transcriptText, type SpeechEngine } from '@verbatim/speech';
import {
  aggregateWer,
  alignWords,
  concatSamples,
  normaliseForScoring,
  type ManifestEntry,
  type WerResult,
} from '@verbatim/speech/test-support';
import { stealMeter } from './cpu-steal.js';
import { load, pct, percentile, s, sampleRate, streamSession, type SessionResult } from './live-socket.js';

export interface DictationClip {
  entry: ManifestEntry;
  samples: Float32Array;
  /** Where the clip's voice ends, as the server's VAD hears it (seconds into the clip). */
  speechEnd: number;
}

/** Sentences of one language joined by a second of silence, as a person dictates them. */
interface Dictation {
  language: string;
  samples: Float32Array;
  /** Per sentence: where its voice ends in the stream (seconds) and its reference words so far. */
  sentences: { speechEnd: number; wordsThrough: number }[];
  reference: string;
}

/** The join between two sentences: at least the 0.8 s of silence that makes an end of sentence. */
const pauseSeconds = 1;
/** How long before the VAD's end of a sentence's voice a final may be its own. */
const earlyFinalSeconds = 0.5;

/** `Done` this long after the last sample of speech (Stop pressed right after the last word). */
const stopAfterSeconds = 0.05;

export function dictationOf(language: string, clips: DictationClip[]): Dictation {
  const chunks: Float32Array[] = [];
  const sentences: Dictation['sentences'] = [];
  let length = 0;
  let words = 0;
  for (const clip of clips) {
    const start = length / sampleRate;
    chunks.push(clip.samples, new Float32Array(sampleRate * pauseSeconds));
    length += clip.samples.length + sampleRate * pauseSeconds;
    words += normaliseForScoring(clip.entry.referenceText, language).length;
    sentences.push({ speechEnd: start + clip.speechEnd, wordsThrough: words });
  }
  return {
    language,
    samples: concatSamples(chunks),
    sentences,
    reference: clips.map((clip) => clip.entry.referenceText).join(' '),
  };
}

/** The finals' text (partials left out): what the person keeps. */
function finalText(messages: readonly LiveServerMessage[]): string {
  return liveTranscriptLines(messages.filter((message) => message.type === 'final')).join('\n');
}

/**
 * How many reference words a hypothesis reaches: the last reference word that a word of the
 * hypothesis is aligned with (the same or substituted), so that a misheard word still counts.
 */
function referenceWordsReached(reference: readonly string[], hypothesis: readonly string[]): number {
  const columns = hypothesis.length + 1;
  const cost = new Uint32Array((reference.length + 1) * columns);
  const at = (i: number, j: number) => cost[i * columns + j] ?? 0;
  for (let i = 0; i <= reference.length; i += 1) cost[i * columns] = i;
  for (let j = 0; j <= hypothesis.length; j += 1) cost[j] = j;
  for (let i = 1; i <= reference.length; i += 1)
    for (let j = 1; j <= hypothesis.length; j += 1)
      cost[i * columns + j] = Math.min(
        at(i - 1, j - 1) + (reference[i - 1] === hypothesis[j - 1] ? 0 : 1),
        at(i - 1, j) + 1,
        at(i, j - 1) + 1,
      );
  // The hypothesis covers a prefix of the reference: the best row for its last column.
  let best = 0;
  for (let i = 0; i <= reference.length; i += 1)
    if (at(i, hypothesis.length) < at(best, hypothesis.length)) best = i;
  return best;
}

/**
 * End of each sentence's voice → its final, in seconds. A sentence's final is the last final that
 * comes after its voice ends and before the next sentence's ends, and whose text reaches into this
 * sentence but not past it: a final that misses or mishears the sentence's last words is still
 * its final (looking for one that reaches the last word would wait for the next sentence's and
 * count its whole length). A sentence whose words only came in a final with the next one's counts
 * to that final; one never reached is left out (counted).
 */
function sentenceLags(
  result: SessionResult,
  dictation: Dictation,
  details: boolean,
): { lags: number[]; missing: number } {
  const reference = normaliseForScoring(dictation.reference, dictation.language);
  const finals: { at: number; reached: number }[] = [];
  const seen: LiveServerMessage[] = [];
  for (const { message, at } of result.messages) {
    seen.push(message);
    if (message.type !== 'final') continue;
    const hypothesis = normaliseForScoring(finalText(seen), dictation.language);
    finals.push({ at: (at - result.started) / 1000, reached: referenceWordsReached(reference, hypothesis) });
  }
  const lags: number[] = [];
  let missing = 0;
  dictation.sentences.forEach((sentence, index) => {
    const wordsBefore = dictation.sentences[index - 1]?.wordsThrough ?? 0;
    const nextEnd = dictation.sentences[index + 1]?.speechEnd ?? Infinity;
    // From a moment before the voice's end as the VAD hears it: it hears a breath or a fading
    // syllable after the last word, and a final may come first (a lag of 0).
    const own = finals.filter(
      (candidate) =>
        candidate.at > sentence.speechEnd - earlyFinalSeconds &&
        candidate.at <= nextEnd &&
        candidate.reached > wordsBefore &&
        candidate.reached <= sentence.wordsThrough + 1,
    );
    const final =
      own.at(-1) ??
      finals.find(
        (candidate) => candidate.at > sentence.speechEnd && candidate.reached >= sentence.wordsThrough - 1,
      );
    if (final) lags.push(Math.max(0, final.at - sentence.speechEnd));
    else missing += 1;
    // Each final near the sentence's end: when (from the end) and how many reference words it reaches.
    if (details)
      console.log(
        `    ${dictation.language} sentence ending at ${s(sentence.speechEnd)} (words up to ${sentence.wordsThrough}): ${final ? s(final.at - sentence.speechEnd) : 'never'}; finals ${finals
          .filter((f) => f.at > sentence.speechEnd - 3 && f.at <= nextEnd)
          .map((f) => `${s(f.at - sentence.speechEnd)} → ${f.reached}`)
          .join(', ')}`,
      );
  });
  return { lags, missing };
}

/** A 16 kHz mono float WAV of the samples, for the batch transcription of the same audio. */
function writeWav(file: string, samples: Float32Array): void {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + samples.length * 4, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(3, 20); // IEEE float
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 4, 28);
  header.writeUInt16LE(4, 32);
  header.writeUInt16LE(32, 34);
  header.write('data', 36);
  header.writeUInt32LE(samples.length * 4, 40);
  writeFileSync(
    file,
    Buffer.concat([header, Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength)]),
  );
}

const describe = (values: number[]) =>
  `p50 ${s(percentile(values, 50))}, p95 ${s(percentile(values, 95))}, max ${s(Math.max(...values))}`;

/** Dictation per language at each concurrency level, then finals' WER against batch. */
export async function dictationPass(
  url: string,
  speech: SpeechEngine,
  clipsByLanguage: Map<string, DictationClip[]>,
  concurrency: number[],
  /** Print every sentence's finals (when each came, how far it reached). */
  details = false,
): Promise<void> {
  const dictations = [...clipsByLanguage].map(([language, clips]) => dictationOf(language, clips));
  console.log(
    `\n## Dictation: ${dictations.map((d) => `${d.language} ${d.sentences.length} sentences`).join(', ')}, joined by ${pauseSeconds} s pauses; end of a sentence's voice → its final (the last one that reaches into it and not past it)`,
  );
  const liveTexts = new Map<string, string>();
  for (const sessions of concurrency) {
    const lags: number[] = [];
    const byLanguage = new Map<string, number[]>();
    let missing = 0;
    const loadBefore = load();
    const steal = stealMeter();
    // Each level streams every language once, `sessions` languages at a time.
    for (let first = 0; first < dictations.length; first += sessions) {
      const group = dictations.slice(first, first + sessions);
      const results = await Promise.all(
        group.map((dictation) =>
          streamSession(`${url}&languageCode=${dictation.language}`, dictation.samples),
        ),
      );
      results.forEach((result, index) => {
        const dictation = group[index];
        if (!dictation) return;
        const figures = sentenceLags(result, dictation, details);
        lags.push(...figures.lags);
        byLanguage.set(dictation.language, figures.lags);
        missing += figures.missing;
        if (sessions === concurrency[0])
          liveTexts.set(dictation.language, finalText(result.messages.map(({ message }) => message)));
      });
    }
    console.log(
      `${sessions} session(s) at once: ${describe(lags)} (${lags.length} sentences${missing ? `, ${missing} never complete` : ''}; targets p50 ≤ 0.7 s, p95 ≤ 1.5 s, at 4 sessions p95 ≤ 2.0 s) — load ${loadBefore} → ${load()}, ${steal()}`,
    );
    console.log(
      `  ${[...byLanguage].map(([language, values]) => `${language} p50 ${s(percentile(values, 50))}`).join(', ')}`,
    );
  }

  const scratch = mkdtempSync(path.join(os.tmpdir(), 'bench-live-'));
  try {
    const rows: string[] = [];
    const live: WerResult[] = [];
    const batch: WerResult[] = [];
    for (const dictation of dictations) {
      const file = path.join(scratch, `${dictation.language}.wav`);
      writeWav(file, dictation.samples);
      const batchText = transcriptText(await speech.transcribeFile(file, { language: dictation.language }));
      const liveResult = wordErrorRate(dictation, liveTexts.get(dictation.language) ?? '');
      const batchResult = wordErrorRate(dictation, batchText);
      live.push(liveResult);
      batch.push(batchResult);
      // Where live and batch differ is where the streaming recogniser loses (or gains) words.
      if (liveResult.errors !== batchResult.errors)
        console.log(
          `  ${dictation.language}: live ${liveResult.errors} error(s) «${liveTexts.get(dictation.language) ?? ''}» / batch ${batchResult.errors} «${batchText}»`,
        );
      rows.push(
        `${dictation.language} ${pct(liveResult.wer)} vs ${pct(batchResult.wer)} (Δ ${((liveResult.wer - batchResult.wer) * 100).toFixed(1)})`,
      );
    }
    const all = [aggregateWer(live), aggregateWer(batch)] as const;
    console.log(
      `finals' WER vs batch WER of the same audio (target: within 1 point, every language): ${rows.join(', ')}; all ${pct(all[0].wer)} vs ${pct(all[1].wer)} — load ${load()}`,
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function wordErrorRate(dictation: Dictation, hypothesis: string): WerResult {
  return alignWords(
    normaliseForScoring(dictation.reference, dictation.language),
    normaliseForScoring(hypothesis, dictation.language),
  );
}

/**
 * Each sentence alone, `Done` sent `stopAfterSeconds` after its voice ends: end of voice → the
 * last final; and whether every word came (WER of that final against the batch text of the clip).
 */
export async function stopPass(
  url: string,
  clipsByLanguage: Map<string, DictationClip[]>,
  /** Print the text of each sentence whose last final has errors against its reference. */
  details = false,
): Promise<void> {
  console.log(
    `\n## Stop: each sentence alone, \`Done\` ${stopAfterSeconds * 1000} ms after its voice ends; end of voice → last final`,
  );
  const lags: number[] = [];
  const rows: string[] = [];
  const loadBefore = load();
  const steal = stealMeter();
  const werResults: WerResult[] = [];
  for (const [language, clips] of clipsByLanguage) {
    const ofLanguage: number[] = [];
    const werOfLanguage: WerResult[] = [];
    for (const clip of clips) {
      const end = Math.min(clip.samples.length, Math.round((clip.speechEnd + stopAfterSeconds) * sampleRate));
      const result = await streamSession(`${url}&languageCode=${language}`, clip.samples.subarray(0, end));
      const last = result.messages.filter(({ message }) => message.type === 'final').at(-1);
      if (!last) continue;
      // The lag from the moment the voice ended (the frame holding it is sent when it is spoken).
      ofLanguage.push((last.at - result.started) / 1000 - clip.speechEnd);
      const text = finalText(result.messages.map(({ message }) => message));
      const wer = alignWords(
        normaliseForScoring(clip.entry.referenceText, language),
        normaliseForScoring(text, language),
      );
      werOfLanguage.push(wer);
      if (details && wer.errors > 0) console.log(`    ${language} ${wer.errors} error(s): «${text}»`);
    }
    lags.push(...ofLanguage);
    werResults.push(...werOfLanguage);
    const { errors, referenceWords } = aggregateWer(werOfLanguage);
    rows.push(
      `${language} p50 ${s(percentile(ofLanguage, 50))} (${errors} errors / ${referenceWords} words)`,
    );
  }
  console.log(
    `end of voice → last final: ${describe(lags)} (${lags.length} sentences; target p50 ≤ 0.6 s); ${rows.join(', ')}; finals' WER ${pct(aggregateWer(werResults).wer)} — load ${loadBefore} → ${load()}, ${steal()}`,
  );
}
